package claude

import (
	"encoding/json"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/changes"
	"path/filepath"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Out is one normalized event.
type Out struct {
	Type    run.EventType
	Payload any
}

// ControlRequest is a request the CLI sends us (can_use_tool, …).
type ControlRequest struct {
	RequestID string
	Subtype   string
	ToolName  string
	ToolUseID string
	Input     json.RawMessage
	Approval  *run.ApprovalRequested // set for can_use_tool
}

// ControlResponse answers one of our control requests.
type ControlResponse struct {
	RequestID string
	Error     string
}

// Result is the CLI's end-of-turn frame.
type Result struct {
	Subtype    string
	IsError    bool
	Text       string
	StopReason string
	SessionID  string
	Usage      *run.Usage
	Denials    int
}

// Mapped is what one native line means.
type Mapped struct {
	Events    []Out
	SessionID string
	Control   *ControlRequest
	Response  *ControlResponse
	Result    *Result
}

// Mapper turns Claude Code stream-json lines into normalized events. It keeps
// just enough state to avoid duplicates: with --include-partial-messages the
// text arrives twice (deltas, then the whole assistant message).
type Mapper struct {
	// Workspace makes file paths relative in file.changed.
	Workspace string
	streamed  map[string]bool            // message ids whose text came as deltas
	current   string                     // message id being streamed
	tools     map[string]json.RawMessage // tool_use id → input (for file.changed)
	toolNames map[string]string
	denied    map[string]bool
	// context is the prompt size of the latest assistant message: how
	// much of the model's context window the conversation fills now.
	context int64
}

// NewMapper returns a mapper for a session in workspace.
func NewMapper(workspace string) *Mapper {
	return &Mapper{Workspace: workspace, streamed: map[string]bool{}, tools: map[string]json.RawMessage{},
		toolNames: map[string]string{}, denied: map[string]bool{}}
}

// Denied records that we refused a tool call, so its result maps to denied.
func (m *Mapper) Denied(toolUseID string) { m.denied[toolUseID] = true }

type frame struct {
	Type      string          `json:"type"`
	Subtype   string          `json:"subtype"`
	SessionID string          `json:"session_id"`
	Model     string          `json:"model"`
	Message   json.RawMessage `json:"message"`
	Event     json.RawMessage `json:"event"`
	RequestID string          `json:"request_id"`
	Request   json.RawMessage `json:"request"`
	// RateLimitInfo rides on rate_limit_event.
	RateLimitInfo json.RawMessage `json:"rate_limit_info"`
	Response      json.RawMessage `json:"response"`
	// result
	IsError      bool                  `json:"is_error"`
	Result       string                `json:"result"`
	StopReason   string                `json:"stop_reason"`
	TotalCostUSD float64               `json:"total_cost_usd"`
	Usage        *nativeUsage          `json:"usage"`
	ModelUsage   map[string]modelUsage `json:"modelUsage"`
	Denials      json.RawMessage       `json:"permission_denials"`
	Errors       []string              `json:"errors"`
	// ToolUseResult rides on a user line beside its tool_result: for Write
	// and Edit it carries the file's text before the change.
	ToolUseResult json.RawMessage `json:"tool_use_result"`
}

// modelUsage is the result frame's per-model line (keyed by model id,
// e.g. "claude-opus-4-8[1m]"): the one place the CLI names the context
// window's size.
type modelUsage struct {
	ContextWindow int64 `json:"contextWindow"`
}

type nativeUsage struct {
	InputTokens   int64 `json:"input_tokens"`
	OutputTokens  int64 `json:"output_tokens"`
	CacheRead     int64 `json:"cache_read_input_tokens"`
	CacheCreation int64 `json:"cache_creation_input_tokens"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

type message struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
	Usage   *nativeUsage    `json:"usage"`
}

// Map interprets one line. Unknown frame types map to nothing: the CLI adds
// frames between releases and none of them may break a run.
func (m *Mapper) Map(line []byte) (Mapped, error) {
	var f frame
	if err := json.Unmarshal(line, &f); err != nil {
		return Mapped{}, fmt.Errorf("claude: bad frame: %w", err)
	}
	out := Mapped{SessionID: f.SessionID}
	switch f.Type {
	case "system":
		if f.Subtype == "init" && f.Model != "" {
			out.Events = append(out.Events, Out{run.EventModelUpdated, run.ModelUpdated{Model: f.Model}})
		}
	case "rate_limit_event":
		if o := quota(f.RateLimitInfo); o != nil {
			out.Events = append(out.Events, *o)
		}
	case "stream_event":
		out.Events = m.streamEvent(f.Event)
	case "assistant":
		out.Events = m.assistant(f.Message)
	case "user":
		out.Events = m.user(f.Message, f.ToolUseResult)
	case "result":
		out.Result = m.result(f)
	case "control_request":
		c, err := controlRequest(f)
		if err != nil {
			return out, err
		}
		out.Control = c
	case "control_response":
		var r struct {
			Subtype   string `json:"subtype"`
			RequestID string `json:"request_id"`
			Error     string `json:"error"`
		}
		if err := json.Unmarshal(f.Response, &r); err != nil {
			return out, fmt.Errorf("claude: bad control_response: %w", err)
		}
		if r.Subtype == "error" && r.Error == "" {
			r.Error = "error"
		}
		out.Response = &ControlResponse{RequestID: r.RequestID, Error: r.Error}
	}
	return out, nil
}

func (m *Mapper) streamEvent(raw json.RawMessage) []Out {
	var ev struct {
		Type    string  `json:"type"`
		Message message `json:"message"`
		Delta   struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Thinking string `json:"thinking"`
		} `json:"delta"`
	}
	if json.Unmarshal(raw, &ev) != nil {
		return nil
	}
	switch ev.Type {
	case "message_start":
		m.current = ev.Message.ID
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			m.streamed[m.current] = true
			if ev.Delta.Text != "" {
				return []Out{{run.EventTokenDelta, run.TextDelta{Text: ev.Delta.Text}}}
			}
		case "thinking_delta":
			m.streamed[m.current] = true
			if ev.Delta.Thinking != "" {
				return []Out{{run.EventReasoningDelta, run.TextDelta{Text: ev.Delta.Thinking}}}
			}
		}
	}
	return nil
}

func (m *Mapper) assistant(raw json.RawMessage) []Out {
	var msg message
	if json.Unmarshal(raw, &msg) != nil {
		return nil
	}
	var blocks []block
	if json.Unmarshal(msg.Content, &blocks) != nil {
		return nil
	}
	if u := msg.Usage; u != nil {
		m.context = u.InputTokens + u.CacheRead + u.CacheCreation
	}
	streamed := msg.ID != "" && m.streamed[msg.ID]
	var out []Out
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if !streamed && b.Text != "" {
				out = append(out, Out{run.EventTokenDelta, run.TextDelta{Text: b.Text}})
			}
		case "thinking":
			if !streamed && b.Thinking != "" {
				out = append(out, Out{run.EventReasoningDelta, run.TextDelta{Text: b.Thinking}})
			}
			if b.Thinking != "" {
				out = append(out, Out{run.EventReasoningDone, run.TextDone{Text: b.Thinking}})
			}
		case "tool_use":
			m.tools[b.ID], m.toolNames[b.ID] = b.Input, b.Name
			out = append(out, Out{run.EventToolStarted, run.ToolStarted{
				ToolCallID: b.ID, Name: b.Name, Title: toolTitle(b.Name, b.Input), Kind: toolKind(b.Name),
				Input: b.Input, Locations: m.locations(b.Input),
			}})
		}
	}
	return out
}

func (m *Mapper) user(raw, toolUseResult json.RawMessage) []Out {
	var msg message
	if json.Unmarshal(raw, &msg) != nil {
		return nil
	}
	var blocks []block
	if json.Unmarshal(msg.Content, &blocks) != nil {
		return nil // a plain string: the CLI echoing the user's own message
	}
	var out []Out
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		text := contentText(b.Content)
		d := run.ToolDone{ToolCallID: b.ToolUseID, Status: "completed", Output: text}
		switch {
		case m.denied[b.ToolUseID]:
			d.Status, d.Error = "denied", text
		case b.IsError:
			d.Status, d.Error = "failed", text
		}
		out = append(out, Out{run.EventToolDone, d})
		if d.Status == "completed" {
			if fc := m.fileChange(b.ToolUseID, text, toolUseResult); fc != nil {
				out = append(out, Out{run.EventFileChanged, *fc})
			}
		}
		delete(m.tools, b.ToolUseID)
	}
	return out
}

func (m *Mapper) result(f frame) *Result {
	r := &Result{Subtype: f.Subtype, IsError: f.IsError, Text: f.Result, StopReason: f.StopReason, SessionID: f.SessionID}
	if r.Text == "" && len(f.Errors) > 0 {
		r.Text = strings.Join(f.Errors, "; ")
	}
	if u := f.Usage; u != nil {
		r.Usage = &run.Usage{InputTokens: u.InputTokens + u.CacheCreation + u.CacheRead, OutputTokens: u.OutputTokens,
			CachedTokens: u.CacheRead, CacheWriteTokens: u.CacheCreation, CostUSD: f.TotalCostUSD, ContextTokens: m.context}
		if f.TotalCostUSD > 0 {
			r.Usage.CostSource = "agent"
		}
		r.Usage.Model, r.Usage.ContextWindow = mainModel(f.ModelUsage)
	}
	var denials []json.RawMessage
	if json.Unmarshal(f.Denials, &denials) == nil {
		r.Denials = len(denials)
	}
	return r
}

func controlRequest(f frame) (*ControlRequest, error) {
	var r struct {
		Subtype     string          `json:"subtype"`
		ToolName    string          `json:"tool_name"`
		DisplayName string          `json:"display_name"`
		Input       json.RawMessage `json:"input"`
		ToolUseID   string          `json:"tool_use_id"`
		Description string          `json:"description"`
		BlockedPath string          `json:"blocked_path"`
	}
	if err := json.Unmarshal(f.Request, &r); err != nil {
		return nil, fmt.Errorf("claude: bad control_request: %w", err)
	}
	c := &ControlRequest{RequestID: f.RequestID, Subtype: r.Subtype, ToolName: r.ToolName, ToolUseID: r.ToolUseID, Input: r.Input}
	if r.Subtype == "can_use_tool" {
		name := r.DisplayName
		if name == "" {
			name = r.ToolName
		}
		var in struct {
			Command string `json:"command"`
		}
		_ = json.Unmarshal(r.Input, &in)
		desc := r.Description
		if desc == "" && r.BlockedPath != "" {
			desc = r.BlockedPath
		}
		c.Approval = &run.ApprovalRequested{
			ApprovalID: f.RequestID, ToolCallID: r.ToolUseID, Title: "Allow " + name + "?",
			Description: desc, Command: in.Command, Options: ApprovalOptions(),
		}
	}
	return c, nil
}

// Approval option ids offered for can_use_tool.
const (
	OptionAllow = "allow"
	OptionDeny  = "deny"
)

// ApprovalOptions are the buttons of a Claude Code permission prompt.
func ApprovalOptions() []run.ApprovalOption {
	return []run.ApprovalOption{
		{ID: OptionAllow, Label: "Allow", Kind: "allow_once"},
		{ID: OptionDeny, Label: "Deny", Kind: "reject_once"},
	}
}

func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []block
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

type toolInput struct {
	Command  string `json:"command"`
	FilePath string `json:"file_path"`
	Path     string `json:"path"`
	Pattern  string `json:"pattern"`
	URL      string `json:"url"`
	Desc     string `json:"description"`
}

func toolTitle(name string, raw json.RawMessage) string {
	var in toolInput
	_ = json.Unmarshal(raw, &in)
	for _, s := range []string{in.Command, in.FilePath, in.Path, in.Pattern, in.URL, in.Desc} {
		if s != "" {
			return name + ": " + firstLine(s)
		}
	}
	return name
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// toolKind maps Claude Code's tool names to ACP's tool kinds.
func toolKind(name string) string {
	switch name {
	case "Bash", "BashOutput", "KillShell":
		return "execute"
	case "Read", "NotebookRead":
		return "read"
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return "edit"
	case "Grep", "Glob", "LS":
		return "search"
	case "WebFetch", "WebSearch":
		return "fetch"
	case "Task", "Agent", "TodoWrite", "ExitPlanMode":
		return "think"
	}
	return "other"
}

func (m *Mapper) locations(raw json.RawMessage) []string {
	var in toolInput
	_ = json.Unmarshal(raw, &in)
	if in.FilePath == "" {
		return nil
	}
	return []string{m.rel(in.FilePath)}
}

// editInput is what Claude Code's Edit, MultiEdit and Write tools take.
type editInput struct {
	FilePath   string `json:"file_path"`
	Content    string `json:"content"` // Write
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"` // Edit
	Edits      []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"` // MultiEdit
}

// editResult is the part of a user line's tool_use_result the diff needs:
// Claude Code reports the file's text before a Write or Edit there
// (originalFile, null for a file the Write created).
type editResult struct {
	Type         string  `json:"type"` // Write: create or update
	FilePath     string  `json:"filePath"`
	OriginalFile *string `json:"originalFile"`
	ReplaceAll   bool    `json:"replaceAll"`
}

// fileChange maps a completed edit tool call to file.changed with the diff
// it made (docs/ARCHITECTURE.md §Events). With the file's old text from
// the line's tool_use_result the diff is of the whole file, with true line
// numbers; without it (older releases, hand-written input) Edit and
// MultiEdit are diffs of the replaced snippets, a Write that created its
// file wholly added, and a Write over an existing file named only (a git
// workspace's snapshot gives that diff).
func (m *Mapper) fileChange(id, result string, toolUseResult json.RawMessage) *run.FileChanged {
	name := m.toolNames[id]
	if toolKind(name) != "edit" {
		return nil
	}
	var in editInput
	_ = json.Unmarshal(m.tools[id], &in)
	if in.FilePath == "" {
		return nil
	}
	path := m.rel(in.FilePath)
	var res editResult
	if len(toolUseResult) > 0 && (json.Unmarshal(toolUseResult, &res) != nil || m.rel(res.FilePath) != path) {
		res = editResult{} // another call's result, or not an edit's (a plain string)
	}
	var fc run.FileChanged
	switch {
	case name == "Write" && res.OriginalFile != nil:
		fc = changes.Text(path, *res.OriginalFile, in.Content, false, false)
	case name == "Edit" && res.OriginalFile != nil && strings.Contains(*res.OriginalFile, in.OldString) && in.OldString != "":
		n := 1
		if in.ReplaceAll || res.ReplaceAll {
			n = -1
		}
		fc = changes.Text(path, *res.OriginalFile, strings.Replace(*res.OriginalFile, in.OldString, in.NewString, n), false, false)
	case name == "Edit":
		fc = changes.Snippets(path, []changes.Edit{{Old: in.OldString, New: in.NewString}})
	case name == "MultiEdit":
		edits := make([]changes.Edit, 0, len(in.Edits))
		for _, e := range in.Edits {
			edits = append(edits, changes.Edit{Old: e.OldString, New: e.NewString})
		}
		fc = changes.Snippets(path, edits)
	case name == "Write" && (res.Type == "create" || strings.Contains(result, "created successfully")):
		fc = changes.Text(path, "", in.Content, true, false)
	default:
		fc = run.FileChanged{Path: path, Action: "modified", Source: run.SourceAgent}
	}
	fc.ToolCallID = id
	return &fc
}

func (m *Mapper) rel(p string) string {
	if m.Workspace == "" || !filepath.IsAbs(p) {
		return p
	}
	if r, err := filepath.Rel(m.Workspace, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// mainModel names the model of a result's modelUsage and its context
// window. With several (a small model for titles beside the main one) the
// one with the largest window is the conversation's; ties go to the first
// name so the answer is stable. The "[1m]" tag Claude Code adds for the
// long-context variant is dropped: prices and totals key on the model.
func mainModel(byModel map[string]modelUsage) (string, int64) {
	var name string
	var window int64
	for k, v := range byModel {
		if name == "" || v.ContextWindow > window || (v.ContextWindow == window && k < name) {
			name, window = k, v.ContextWindow
		}
	}
	if i := strings.IndexByte(name, '['); i > 0 {
		name = name[:i]
	}
	return name, window
}
