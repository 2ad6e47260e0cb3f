package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Gemini reads Gemini CLI's chats: <root>/tmp/<project>/chats/session-*.jsonl
// (and the older whole-file session-*.json), root ~/.gemini, or
// $GEMINI_CLI_HOME/.gemini. A .jsonl file is a log to replay, as the CLI
// does: metadata lines merge, a message line adds or replaces a message by
// id, {"$set": {"messages": …}} replaces them all, {"$rewindTo": id} drops
// that message and every later one. The project's folder is in
// <project>/.project_root or in projects.json.
type Gemini struct{}

func (Gemini) Agent() string { return "gemini" }

func (Gemini) Root(getenv func(string) string, home string) string {
	if d := getenv("GEMINI_CLI_HOME"); d != "" {
		home = d
	}
	return filepath.Join(home, ".gemini")
}

func (g Gemini) Discover(root string) ([]string, error) {
	var files []string
	for _, ext := range []string{"json", "jsonl"} {
		m, err := filepath.Glob(filepath.Join(root, "tmp", "*", "chats", "session-*."+ext))
		if err != nil {
			return nil, fmt.Errorf("list Gemini CLI sessions under %s: %w", root, err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	return files, nil
}

func (Gemini) WatchDir(root string) string { return filepath.Join(root, "tmp") }

func (Gemini) Match(root, path string) bool {
	for _, ext := range []string{"json", "jsonl"} {
		if ok, _ := filepath.Match(filepath.Join(root, "tmp", "*", "chats", "session-*."+ext), path); ok {
			return true
		}
	}
	return false
}

// geminiRecord is one line: a message (id and type), a metadata record, or
// a $set / $rewindTo operation. The older .json file is one record with
// all its messages.
type geminiRecord struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"` // user, gemini, info, error, warning
	Timestamp string          `json:"timestamp"`
	Content   json.RawMessage `json:"content"`
	Thoughts  []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	} `json:"thoughts"`
	ToolCalls []geminiToolCall `json:"toolCalls"`
	Tokens    *struct {
		Input    int64 `json:"input"`
		Output   int64 `json:"output"`
		Cached   int64 `json:"cached"`
		Thoughts int64 `json:"thoughts"`
	} `json:"tokens"`
	Model string `json:"model"`

	SessionID string         `json:"sessionId"`
	StartTime string         `json:"startTime"`
	Summary   string         `json:"summary"`
	Messages  []geminiRecord `json:"messages"`
	Set       *geminiRecord  `json:"$set"`
	RewindTo  *string        `json:"$rewindTo"`
	Kind      string         `json:"kind"`
}

type geminiToolCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   map[string]any  `json:"args"`
	Result json.RawMessage `json:"result"`
	Status string          `json:"status"` // success, error, cancelled
}

// parseGeminiLine decodes one line; the fuzz target's entry point.
func parseGeminiLine(b []byte) (geminiRecord, error) {
	var r geminiRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("not a JSON line: %w", err)
	}
	if r.ID == "" && r.SessionID == "" && r.Set == nil && r.RewindTo == nil {
		return r, fmt.Errorf("line is neither a message nor session metadata")
	}
	return r, nil
}

// geminiLog replays the records into the conversation's messages, in order.
type geminiLog struct {
	msgs  []geminiRecord
	index map[string]int
	meta  geminiRecord
}

func (l *geminiLog) put(m geminiRecord) {
	if i, ok := l.index[m.ID]; ok {
		l.msgs[i] = m // a message written again (a tool call's result arrived) keeps its place
		return
	}
	l.index[m.ID] = len(l.msgs)
	l.msgs = append(l.msgs, m)
}

func (l *geminiLog) reset(msgs []geminiRecord) {
	l.msgs, l.index = nil, map[string]int{}
	for _, m := range msgs {
		if m.ID != "" {
			l.put(m)
		}
	}
}

func (l *geminiLog) apply(r geminiRecord) {
	switch {
	case r.RewindTo != nil:
		i, ok := l.index[*r.RewindTo]
		if !ok {
			i = 0 // the CLI drops everything when the id is unknown
		}
		for _, m := range l.msgs[i:] {
			delete(l.index, m.ID)
		}
		l.msgs = l.msgs[:i]
	case r.Set != nil:
		if r.Set.Messages != nil {
			l.reset(r.Set.Messages)
		}
		l.merge(*r.Set)
	case r.ID != "" && r.Type != "":
		l.put(r)
	default:
		l.merge(r)
	}
}

func (l *geminiLog) merge(r geminiRecord) {
	if r.SessionID != "" {
		l.meta.SessionID = r.SessionID
	}
	if r.StartTime != "" && l.meta.StartTime == "" {
		l.meta.StartTime = r.StartTime
	}
	if r.Summary != "" {
		l.meta.Summary = r.Summary
	}
	if r.Kind != "" {
		l.meta.Kind = r.Kind
	}
}

func (g Gemini) Parse(r io.Reader, file string) (*Session, error) {
	s := &Session{Origin: Origin{Agent: g.Agent(), File: file}}
	log := &geminiLog{index: map[string]int{}}
	if strings.HasSuffix(file, ".json") {
		// The older format: one JSON document, written whole.
		b, err := io.ReadAll(r)
		if err != nil {
			return s, fmt.Errorf("read Gemini CLI session %s: %w", file, err)
		}
		s.Offset = int64(len(b))
		if len(bytes.TrimSpace(b)) > 0 {
			rec, err := parseGeminiLine(b)
			if err != nil {
				s.Skipped = append(s.Skipped, Skipped{Line: 1, Reason: err.Error()})
			} else {
				log.reset(rec.Messages)
				log.merge(rec)
			}
		}
	} else {
		off, err := eachLine(r, func(k Skipped) { s.Skipped = append(s.Skipped, k) }, func(n int, b []byte) {
			rec, err := parseGeminiLine(b)
			if err != nil {
				s.Skipped = append(s.Skipped, Skipped{Line: n, Reason: err.Error()})
				return
			}
			log.apply(rec)
		})
		s.Offset = off
		if err != nil {
			return s, fmt.Errorf("read Gemini CLI session %s: %w", file, err)
		}
	}
	s.Origin.NativeID = log.meta.SessionID
	if s.Origin.NativeID == "" {
		s.Origin.NativeID = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(file), ".jsonl"), ".json")
	}
	s.Title = titleOf(log.meta.Summary)
	s.Workspace = geminiWorkspace(file)
	s.touch(parseTime(log.meta.StartTime))
	var t turns
	pending := false // the last turn waits for the agent: no answer yet, or tool results the model has not answered
	for _, m := range log.msgs {
		at := parseTime(m.Timestamp)
		s.touch(at)
		switch m.Type {
		case "user":
			text, typed := geminiText(m.Content)
			if !typed || geminiIgnored(text) {
				continue // a tool's result, the CLI's own context, a slash command
			}
			if s.Title == "" {
				s.Title = titleOf(text)
			}
			t.start(at, m.ID, text)
			pending = true
		case "gemini":
			if m.Model != "" {
				s.Model = m.Model
			}
			geminiAnswer(&t, m)
			pending = len(m.ToolCalls) > 0
		case "error":
			text, _ := geminiText(m.Content)
			t.add(run.EventNotice, run.Notice{Message: "Gemini CLI: " + text})
		}
	}
	// The last turn is open until an answer without tool calls came. (The
	// file has no turn-end mark: a text written before a tool call that is
	// still waiting for approval reads as an answer.)
	s.Open = len(t.list) > 0 && pending
	s.Unmarked = true
	t.end()
	s.Turns = t.list
	return s, nil
}

func geminiAnswer(t *turns, m geminiRecord) {
	if all := geminiThoughts(m); all != "" {
		t.add(run.EventReasoningDelta, run.TextDelta{Text: all})
		t.add(run.EventReasoningDone, run.TextDone{Text: all})
	}
	if text, _ := geminiText(m.Content); text != "" {
		t.add(run.EventTokenDelta, run.TextDelta{Text: text})
	}
	for _, tc := range m.ToolCalls {
		t.add(run.EventToolStarted, run.ToolStarted{ToolCallID: tc.ID, Name: tc.Name, Title: toolTitle(tc.Name, tc.Args),
			Kind: toolKind(tc.Name), Input: tc.Args})
		d := run.ToolDone{ToolCallID: tc.ID, Status: "completed", Output: geminiToolOutput(tc.Result)}
		switch tc.Status {
		case "error":
			d.Status = "failed"
		case "cancelled":
			d.Status = "cancelled"
		}
		t.add(run.EventToolDone, d)
	}
	if m.Tokens != nil {
		t.addUsage(run.Usage{InputTokens: m.Tokens.Input, OutputTokens: m.Tokens.Output, ReasoningTokens: m.Tokens.Thoughts,
			CachedTokens: m.Tokens.Cached})
	}
}

// geminiThoughts is an answer's thoughts as one text: a thought with a
// subject starts a paragraph ("**Subject** description", as the CLI shows
// it); one without (a streamed fragment) goes on the same line.
func geminiThoughts(m geminiRecord) string {
	var b strings.Builder
	for _, th := range m.Thoughts {
		part := strings.TrimSpace(th.Description)
		if th.Subject != "" {
			part = strings.TrimSpace("**" + th.Subject + "** " + part)
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
		} else if b.Len() > 0 && part != "" {
			b.WriteString(" ")
		}
		b.WriteString(part)
	}
	return b.String()
}

// geminiText is a message's text: a string or a list of parts; typed is
// false when it holds no text part (a function response).
func geminiText(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var parts []struct {
		Text *string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return "", false
	}
	var out []string
	for _, p := range parts {
		if p.Text != nil {
			out = append(out, *p.Text)
		}
	}
	return strings.Join(out, ""), len(out) > 0
}

// geminiIgnored: what the CLI itself does not count as typed (its
// session context, hooks, slash and help commands).
func geminiIgnored(text string) bool {
	t := strings.TrimSpace(text)
	return t == "" || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "?") ||
		strings.HasPrefix(t, "<session_context>") || strings.HasPrefix(t, "<hook_context>")
}

// geminiToolOutput is the text of a tool call's function responses, without
// the CLI's <untrusted_context> wrapper.
func geminiToolOutput(raw json.RawMessage) string {
	var parts []struct {
		FunctionResponse struct {
			Response map[string]any `json:"response"`
		} `json:"functionResponse"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var out []string
	for _, p := range parts {
		r := p.FunctionResponse.Response
		for _, k := range []string{"output", "error", "llmContent"} {
			if v, ok := r[k].(string); ok && v != "" {
				v = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "<untrusted_context>"), "</untrusted_context>"))
				out = append(out, v)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// geminiWorkspace is the folder a chat was recorded in:
// tmp/<project>/.project_root, else the folder projects.json maps to
// <project>.
func geminiWorkspace(file string) string {
	project := filepath.Dir(filepath.Dir(file))
	if b, err := os.ReadFile(filepath.Join(project, ".project_root")); err == nil {
		if p := strings.TrimSpace(string(b)); filepath.IsAbs(p) {
			return p
		}
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(project)), "projects.json"))
	if err != nil {
		return ""
	}
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if json.Unmarshal(b, &reg) != nil {
		return ""
	}
	for dir, id := range reg.Projects {
		if id == filepath.Base(project) {
			return dir
		}
	}
	return ""
}
