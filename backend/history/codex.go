package history

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Codex reads Codex's rollouts: <root>/sessions/YYYY/MM/DD/rollout-*.jsonl,
// root ~/.codex or $CODEX_HOME. Lines are {timestamp, type, payload};
// response_item lines are the conversation (what the model saw), event_msg
// lines carry usage and turn ends.
type Codex struct{}

func (Codex) Agent() string { return "codex" }

func (Codex) Root(getenv func(string) string, home string) string {
	if d := getenv("CODEX_HOME"); d != "" {
		return d
	}
	return filepath.Join(home, ".codex")
}

func (Codex) Discover(root string) ([]string, error) {
	var files []string
	dir := filepath.Join(root, "sessions")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return fs.SkipAll // no sessions yet
			}
			return nil // an unreadable corner is left out, not fatal
		}
		if !d.IsDir() && strings.HasPrefix(d.Name(), "rollout-") && strings.HasSuffix(d.Name(), ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list Codex sessions under %s: %w", root, err)
	}
	sort.Strings(files)
	return files, nil
}

func (Codex) WatchDir(root string) string { return filepath.Join(root, "sessions") }

func (Codex) Match(root, path string) bool {
	rel, err := filepath.Rel(filepath.Join(root, "sessions"), path)
	base := filepath.Base(path)
	return err == nil && !strings.HasPrefix(rel, "..") && strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl")
}

type codexLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// codexItem is a response_item payload (and the fields of the other
// payloads this reader uses).
type codexItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Summary   json.RawMessage `json:"summary"` // a list of texts here, a string in turn_context
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Action    json.RawMessage `json:"action"`
	// session_meta
	Cwd        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	// turn_context
	Model string `json:"model"`
	// event_msg
	Info *struct {
		Last *struct {
			Input     int64 `json:"input_tokens"`
			Cached    int64 `json:"cached_input_tokens"`
			Output    int64 `json:"output_tokens"`
			Reasoning int64 `json:"reasoning_output_tokens"`
		} `json:"last_token_usage"`
		Window int64 `json:"model_context_window"`
	} `json:"info"`
}

type codexText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// parseCodexLine decodes one line; the fuzz target's entry point.
func parseCodexLine(b []byte) (codexLine, codexItem, error) {
	var l codexLine
	var it codexItem
	if err := json.Unmarshal(b, &l); err != nil {
		return l, it, fmt.Errorf("not a JSON line: %w", err)
	}
	if l.Type == "" {
		return l, it, fmt.Errorf("line has no type")
	}
	if len(l.Payload) > 0 && string(l.Payload) != "null" {
		if err := json.Unmarshal(l.Payload, &it); err != nil {
			return l, it, fmt.Errorf("%s payload: %w", l.Type, err)
		}
	}
	return l, it, nil
}

// injected user messages are Codex's own context, not typed by a person.
var codexInjected = []string{"<environment_context>", "<user_instructions>", "<skills_instructions>", "# AGENTS.md instructions", "<turn_aborted>", "<user_shell_command>"}

func (c Codex) Parse(r io.Reader, file string) (*Session, error) {
	s := &Session{Origin: Origin{Agent: c.Agent(), File: file}}
	var t turns
	n, ended := 0, 0 // ended: how many turns the agent ended
	off, err := eachLine(r, func(k Skipped) { s.Skipped = append(s.Skipped, k) }, func(ln int, b []byte) {
		l, it, err := parseCodexLine(b)
		if err != nil {
			s.Skipped = append(s.Skipped, Skipped{Line: ln, Reason: err.Error()})
			return
		}
		at := parseTime(l.Timestamp)
		s.touch(at)
		switch l.Type {
		case "session_meta":
			if s.Origin.NativeID == "" {
				s.Origin.NativeID, s.Workspace = it.ID, it.Cwd
			}
			if it.CLIVersion != "" {
				s.Origin.Version = it.CLIVersion
			}
		case "turn_context":
			if it.Model != "" {
				s.Model = it.Model
			}
		case "compacted":
			t.add(run.EventNotice, run.Notice{Message: "Codex compacted the conversation here."})
		case "event_msg":
			switch it.Type {
			case "token_count":
				if it.Info != nil && it.Info.Last != nil {
					u := it.Info.Last
					t.addUsage(run.Usage{InputTokens: u.Input, OutputTokens: u.Output, ReasoningTokens: u.Reasoning,
						CachedTokens: u.Cached, ContextWindow: it.Info.Window})
				}
			case "task_complete":
				t.end()
				ended = len(t.list)
			case "turn_aborted":
				t.endWith(run.StatusCancelled)
				ended = len(t.list)
			}
		case "response_item":
			n++
			codexItemEvents(s, &t, at, it, n)
		}
	})
	s.Offset = off
	if err != nil {
		return s, fmt.Errorf("read Codex session %s: %w", file, err)
	}
	s.Open = ended < len(t.list)
	t.end()
	s.Turns = t.list
	return s, nil
}

func codexItemEvents(s *Session, t *turns, at time.Time, it codexItem, n int) {
	switch it.Type {
	case "message":
		var parts []codexText
		_ = json.Unmarshal(it.Content, &parts)
		var text []string
		for _, p := range parts {
			if p.Text != "" {
				text = append(text, p.Text)
			}
		}
		joined := strings.Join(text, "\n")
		switch it.Role {
		case "user":
			for _, pre := range codexInjected {
				if strings.HasPrefix(strings.TrimSpace(joined), pre) {
					return
				}
			}
			if s.Title == "" {
				s.Title = titleOf(joined)
			}
			id := it.ID
			if id == "" {
				id = "codex-item-" + strconv.Itoa(n)
			}
			t.start(at, id, joined)
		case "assistant":
			for _, p := range text {
				t.add(run.EventTokenDelta, run.TextDelta{Text: p})
			}
		}
	case "reasoning":
		// Only the readable summary (or raw text); encrypted_content is
		// the provider's and stays out of view.
		var parts []codexText
		_ = json.Unmarshal(it.Summary, &parts)
		if len(parts) == 0 {
			_ = json.Unmarshal(it.Content, &parts)
		}
		var text []string
		for _, p := range parts {
			if p.Text != "" {
				text = append(text, p.Text)
			}
		}
		if len(text) > 0 {
			all := strings.Join(text, "\n\n")
			t.add(run.EventReasoningDelta, run.TextDelta{Text: all})
			t.add(run.EventReasoningDone, run.TextDone{Text: all})
		}
	case "function_call":
		var input any = it.Arguments
		var parsed map[string]any
		if json.Unmarshal([]byte(it.Arguments), &parsed) == nil {
			input = parsed
		}
		t.add(run.EventToolStarted, run.ToolStarted{ToolCallID: it.CallID, Name: it.Name, Title: toolTitle(it.Name, parsed),
			Kind: toolKind(it.Name), Input: input})
	case "local_shell_call":
		var a struct {
			Command []string `json:"command"`
		}
		_ = json.Unmarshal(it.Action, &a)
		t.add(run.EventToolStarted, run.ToolStarted{ToolCallID: it.CallID, Name: "shell", Title: "shell: " + firstLineOf(strings.Join(a.Command, " ")),
			Kind: "execute", Input: map[string]any{"command": a.Command}})
	case "custom_tool_call":
		var input string
		_ = json.Unmarshal(it.Input, &input)
		t.add(run.EventToolStarted, run.ToolStarted{ToolCallID: it.CallID, Name: it.Name, Title: it.Name,
			Kind: toolKind(it.Name), Input: map[string]any{"input": input}})
	case "function_call_output", "custom_tool_call_output":
		t.add(run.EventToolDone, codexToolDone(it.CallID, it.Output))
	case "web_search_call":
		var a struct {
			Query string `json:"query"`
		}
		_ = json.Unmarshal(it.Action, &a)
		id := it.ID
		if id == "" {
			id = "codex-search-" + strconv.Itoa(n)
		}
		t.add(run.EventToolStarted, run.ToolStarted{ToolCallID: id, Name: "web_search", Title: "web_search: " + a.Query, Kind: "fetch",
			Input: map[string]any{"query": a.Query}})
		t.add(run.EventToolDone, run.ToolDone{ToolCallID: id, Status: "completed"})
	}
}

var codexExitRE = regexp.MustCompile(`(?m)^Process exited with code (-?\d+)$`)

// codexToolDone reads a tool's output: newer Codex writes text with a
// header ("Process exited with code 0 … Output:\n…"), older Codex a JSON
// string {"output", "metadata": {"exit_code"}}; some write {content, success}.
func codexToolDone(id string, raw json.RawMessage) run.ToolDone {
	d := run.ToolDone{ToolCallID: id, Status: "completed"}
	var text string
	if json.Unmarshal(raw, &text) != nil {
		var obj struct {
			Content string `json:"content"`
			Success *bool  `json:"success"`
		}
		if json.Unmarshal(raw, &obj) == nil {
			text = obj.Content
			if obj.Success != nil && !*obj.Success {
				d.Status = "failed"
			}
		}
	}
	var old struct {
		Output   *string `json:"output"`
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if strings.HasPrefix(text, "{") && json.Unmarshal([]byte(text), &old) == nil && old.Output != nil {
		text, d.ExitCode = *old.Output, old.Metadata.ExitCode
	} else if m := codexExitRE.FindStringSubmatch(text); m != nil {
		if code, err := strconv.Atoi(m[1]); err == nil {
			d.ExitCode = &code
		}
		if _, out, ok := strings.Cut(text, "\nOutput:\n"); ok {
			text = out
		}
	}
	if d.ExitCode != nil && *d.ExitCode != 0 {
		d.Status = "failed"
	}
	d.Output = text
	return d
}
