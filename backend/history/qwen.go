package history

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Qwen reads Qwen Code's chats: <root>/projects/<cwd-slug>/chats/<session>.jsonl,
// root ~/.qwen or $QWEN_HOME. Records form a tree (uuid/parentUuid); the
// conversation is the path from the last record back, as the CLI rebuilds
// it on resume, records sharing a uuid read together. Messages are Gemini
// API contents: parts with text (thought: true is reasoning), functionCall,
// functionResponse.
type Qwen struct{}

func (Qwen) Agent() string { return "qwen" }

func (Qwen) Root(getenv func(string) string, home string) string {
	if d := getenv("QWEN_HOME"); d != "" {
		return d
	}
	return filepath.Join(home, ".qwen")
}

func (Qwen) Discover(root string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(root, "projects", "*", "chats", "*.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("list Qwen Code sessions under %s: %w", root, err)
	}
	sort.Strings(files)
	return files, nil
}

func (Qwen) WatchDir(root string) string { return filepath.Join(root, "projects") }

func (Qwen) Match(root, path string) bool {
	ok, _ := filepath.Match(filepath.Join(root, "projects", "*", "chats", "*.jsonl"), path)
	return ok
}

type qwenRecord struct {
	UUID       string `json:"uuid"`
	ParentUUID string `json:"parentUuid"`
	SessionID  string `json:"sessionId"`
	Timestamp  string `json:"timestamp"`
	Type       string `json:"type"` // user, assistant, tool_result, system
	Subtype    string `json:"subtype"`
	Cwd        string `json:"cwd"`
	Version    string `json:"version"`
	Model      string `json:"model"`
	Message    *struct {
		Parts []qwenPart `json:"parts"`
	} `json:"message"`
	Usage *struct {
		Prompt   int64 `json:"promptTokenCount"`
		Output   int64 `json:"candidatesTokenCount"`
		Thoughts int64 `json:"thoughtsTokenCount"`
		Cached   int64 `json:"cachedContentTokenCount"`
	} `json:"usageMetadata"`
	ToolCallResult *struct {
		CallID string `json:"callId"`
		Status string `json:"status"`
	} `json:"toolCallResult"`
}

type qwenPart struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	FunctionCall *struct {
		ID   string         `json:"id"`
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string         `json:"id"`
		Response map[string]any `json:"response"`
	} `json:"functionResponse"`
}

// parseQwenLine decodes one line; the fuzz target's entry point.
func parseQwenLine(b []byte) (qwenRecord, error) {
	var r qwenRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("not a JSON line: %w", err)
	}
	if r.UUID == "" || r.Type == "" {
		return r, fmt.Errorf("line has no uuid or type")
	}
	return r, nil
}

func (q Qwen) Parse(r io.Reader, file string) (*Session, error) {
	s := &Session{Origin: Origin{Agent: q.Agent(), File: file}}
	var recs []qwenRecord
	first := map[string]int{} // uuid → its first record (its parent)
	all := map[string][]int{} // uuid → every record written under it
	off, err := eachLine(r, func(k Skipped) { s.Skipped = append(s.Skipped, k) }, func(n int, b []byte) {
		rec, err := parseQwenLine(b)
		if err != nil {
			s.Skipped = append(s.Skipped, Skipped{Line: n, Reason: err.Error()})
			return
		}
		if _, ok := first[rec.UUID]; !ok {
			first[rec.UUID] = len(recs)
		}
		all[rec.UUID] = append(all[rec.UUID], len(recs))
		recs = append(recs, rec)
	})
	s.Offset = off
	if err != nil {
		return s, fmt.Errorf("read Qwen Code session %s: %w", file, err)
	}
	var t turns
	pending := false
	if len(recs) > 0 {
		chain := treePath(first[recs[len(recs)-1].UUID], func(i int) (int, bool) {
			j, ok := first[recs[i].ParentUUID]
			return j, ok
		})
		for _, i := range chain {
			for _, k := range all[recs[i].UUID] {
				qwenRecordEvents(s, &t, recs[k], &pending)
			}
		}
	}
	if s.Origin.NativeID == "" {
		s.Origin.NativeID = strings.TrimSuffix(filepath.Base(file), ".jsonl")
	}
	// Open: no answer yet, or the last answer called tools.
	s.Open = len(t.list) > 0 && pending
	t.end()
	s.Turns = t.list
	return s, nil
}

func qwenRecordEvents(s *Session, t *turns, rec qwenRecord, pending *bool) {
	if s.Origin.NativeID == "" {
		s.Origin.NativeID = rec.SessionID
	}
	if rec.Version != "" {
		s.Origin.Version = rec.Version
	}
	if s.Workspace == "" {
		s.Workspace = rec.Cwd
	}
	at := parseTime(rec.Timestamp)
	s.touch(at)
	var parts []qwenPart
	if rec.Message != nil {
		parts = rec.Message.Parts
	}
	switch rec.Type {
	case "user":
		var text []string
		for _, p := range parts {
			if p.Text != nil && !p.Thought {
				text = append(text, *p.Text)
			}
		}
		if len(text) == 0 {
			return
		}
		joined := strings.Join(text, "\n")
		if s.Title == "" {
			s.Title = titleOf(joined)
		}
		t.start(at, rec.UUID, joined)
		*pending = true
	case "assistant":
		if rec.Model != "" {
			s.Model = rec.Model
		}
		calls := false
		for _, p := range parts {
			switch {
			case p.FunctionCall != nil:
				c := p.FunctionCall
				t.add(run.EventToolStarted, run.ToolStarted{ToolCallID: c.ID, Name: c.Name, Title: toolTitle(c.Name, c.Args),
					Kind: toolKind(c.Name), Input: c.Args})
				calls = true
			case p.Text != nil && p.Thought:
				t.add(run.EventReasoningDelta, run.TextDelta{Text: *p.Text})
				t.add(run.EventReasoningDone, run.TextDone{Text: *p.Text})
			case p.Text != nil && *p.Text != "":
				t.add(run.EventTokenDelta, run.TextDelta{Text: *p.Text})
			}
		}
		if u := rec.Usage; u != nil {
			t.addUsage(run.Usage{InputTokens: u.Prompt, OutputTokens: u.Output, ReasoningTokens: u.Thoughts, CachedTokens: u.Cached})
		}
		*pending = calls
	case "tool_result":
		for _, p := range parts {
			if p.FunctionResponse == nil {
				continue
			}
			d := run.ToolDone{ToolCallID: p.FunctionResponse.ID, Status: "completed"}
			for _, k := range []string{"output", "error"} {
				if v, ok := p.FunctionResponse.Response[k].(string); ok && v != "" {
					d.Output = v
					break
				}
			}
			if res := rec.ToolCallResult; res != nil {
				switch res.Status {
				case "error":
					d.Status = "failed"
				case "cancelled":
					d.Status = "cancelled"
				}
			}
			t.add(run.EventToolDone, d)
		}
	case "system":
		if rec.Subtype == "chat_compression" {
			t.add(run.EventNotice, run.Notice{Message: "Qwen Code compacted the conversation here."})
		}
	}
}
