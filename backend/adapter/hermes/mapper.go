package hermes

import (
	"encoding/json"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Out is one normalized event.
type Out struct {
	Type    run.EventType
	Payload any
}

// Result is the final frame of a `--format stream-json` run.
type Result struct {
	SessionID string
	ExitCode  *int
	Text      string
	Error     string
	Usage     *run.Usage
}

// Mapped is what one stream-json line means.
type Mapped struct {
	Events    []Out
	SessionID string
	Result    *Result
}

// frame is a stream-json line. Hermes documents the frame types (system
// init, text, tool_use, tool_result, result) more firmly than their fields,
// so the few fields we need are read under each spelling seen in its docs.
type frame struct {
	Type       string          `json:"type"`
	Subtype    string          `json:"subtype"`
	Model      string          `json:"model"`
	SessionID  string          `json:"session_id"`
	Text       string          `json:"text"`
	ID         string          `json:"id"`
	ToolID     string          `json:"tool_id"`
	ToolCallID string          `json:"tool_call_id"`
	Name       string          `json:"name"`
	ToolName   string          `json:"tool_name"`
	Input      json.RawMessage `json:"input"`
	Args       json.RawMessage `json:"args"`
	Output     string          `json:"output"`
	IsError    bool            `json:"is_error"`
	DurationMs int64           `json:"duration_ms"`
	ExitCode   *int            `json:"exit_code"`
	Error      string          `json:"error"`
	Tokens     *struct {
		Input  int64 `json:"input"`
		Output int64 `json:"output"`
	} `json:"tokens"`
}

// Mapper maps stream-json lines. It numbers tool calls when Hermes gives
// them no id, pairing each tool_result with the oldest open tool_use.
type Mapper struct {
	seq  int
	open []string
}

// Map interprets one line; unknown frame types map to nothing.
func (m *Mapper) Map(line []byte) (Mapped, error) {
	var f frame
	if err := json.Unmarshal(line, &f); err != nil {
		return Mapped{}, fmt.Errorf("hermes: bad frame: %w", err)
	}
	out := Mapped{SessionID: f.SessionID}
	switch f.Type {
	case "system":
		if f.Subtype == "init" && f.Model != "" {
			out.Events = append(out.Events, Out{run.EventModelUpdated, run.ModelUpdated{Model: f.Model}})
		}
	case "text":
		if f.Text != "" {
			out.Events = append(out.Events, Out{run.EventTokenDelta, run.TextDelta{Text: f.Text}})
		}
	case "tool_use":
		id := first(f.ID, f.ToolID, f.ToolCallID)
		if id == "" {
			m.seq++
			id = fmt.Sprintf("hermes-tool-%d", m.seq)
		}
		m.open = append(m.open, id)
		name := first(f.Name, f.ToolName)
		input := f.Input
		if len(input) == 0 {
			input = f.Args
		}
		out.Events = append(out.Events, Out{run.EventToolStarted, run.ToolStarted{ToolCallID: id, Name: name, Title: name,
			Kind: toolKind(name), Input: input}})
	case "tool_result":
		id := first(f.ID, f.ToolID, f.ToolCallID)
		if id == "" && len(m.open) > 0 {
			id = m.open[0]
		}
		m.close(id)
		d := run.ToolDone{ToolCallID: id, Status: "completed", Output: f.Output, DurationMs: f.DurationMs}
		if f.IsError {
			d.Status, d.Error = "failed", first(f.Error, f.Output)
		}
		out.Events = append(out.Events, Out{run.EventToolDone, d})
	case "result":
		r := &Result{SessionID: f.SessionID, ExitCode: f.ExitCode, Text: f.Text, Error: f.Error}
		if f.Tokens != nil {
			r.Usage = &run.Usage{InputTokens: f.Tokens.Input, OutputTokens: f.Tokens.Output}
		}
		out.Result = r
	}
	return out, nil
}

func (m *Mapper) close(id string) {
	for i, o := range m.open {
		if o == id {
			m.open = append(m.open[:i], m.open[i+1:]...)
			return
		}
	}
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// toolKind maps Hermes' tool names to ACP's tool kinds.
func toolKind(name string) string {
	switch name {
	case "terminal", "process", "execute_code":
		return "execute"
	case "read_file":
		return "read"
	case "write_file", "patch":
		return "edit"
	case "search_files", "session_search":
		return "search"
	case "web_search", "web_extract", "browser_navigate":
		return "fetch"
	case "todo", "delegate_task", "memory":
		return "think"
	}
	return "other"
}
