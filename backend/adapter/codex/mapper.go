package codex

import (
	"encoding/json"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/changes"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Out is one normalized event.
type Out struct {
	Type    run.EventType
	Payload any
}

// ServerRequest is a JSON-RPC request codex sends us (approvals, questions).
type ServerRequest struct {
	ID       json.RawMessage
	Method   string
	ItemID   string
	Approval *run.ApprovalRequested // for the approval methods
}

// Response answers one of our requests.
type Response struct {
	ID     int64
	Result json.RawMessage
	Error  string
}

// TurnEnd is turn/completed.
type TurnEnd struct {
	TurnID string
	Status string // completed, interrupted, failed
	Error  string
}

// Mapped is what one app-server line means.
type Mapped struct {
	Events   []Out
	Request  *ServerRequest
	Response *Response
	TurnEnd  *TurnEnd
	// Usage is the thread's running token total, when reported.
	Usage *run.Usage
}

// Mapper turns `codex app-server` JSON-RPC lines into normalized events.
// State: which agent messages/reasoning streamed as deltas (their completed
// item then carries the same text again).
type Mapper struct {
	Workspace string
	deltas    map[string]bool
}

// NewMapper returns a mapper for a thread in workspace.
func NewMapper(workspace string) *Mapper {
	return &Mapper{Workspace: workspace, deltas: map[string]bool{}}
}

// codexTokens is one of tokenUsage's counts; inputTokens includes the
// cached and cache-write input (OpenAI's convention, and run.Usage's).
type codexTokens struct {
	TotalTokens     int64 `json:"totalTokens"`
	InputTokens     int64 `json:"inputTokens"`
	CachedInput     int64 `json:"cachedInputTokens"`
	CacheWrite      int64 `json:"cacheWriteInputTokens"`
	OutputTokens    int64 `json:"outputTokens"`
	ReasoningOutput int64 `json:"reasoningOutputTokens"`
}

type rpcLine struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

type item struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	Text             string          `json:"text"`
	Summary          []string        `json:"summary"`
	Content          json.RawMessage `json:"content"`
	Command          string          `json:"command"`
	Status           string          `json:"status"`
	AggregatedOutput *string         `json:"aggregatedOutput"`
	ExitCode         *int            `json:"exitCode"`
	DurationMs       *int64          `json:"durationMs"`
	Changes          []struct {
		Path string `json:"path"`
		Kind struct {
			Type string `json:"type"`
		} `json:"kind"`
		Diff string `json:"diff"`
	} `json:"changes"`
}

// Map interprets one line. Unknown methods map to nothing.
func (m *Mapper) Map(line []byte) (Mapped, error) {
	var l rpcLine
	if err := json.Unmarshal(line, &l); err != nil {
		return Mapped{}, fmt.Errorf("codex: bad line: %w", err)
	}
	var out Mapped
	hasID := len(l.ID) > 0 && string(l.ID) != "null"
	switch {
	case l.Method == "" && hasID:
		id, err := strconv.ParseInt(string(l.ID), 10, 64)
		if err != nil {
			return out, nil // not one of ours (we only send numeric ids)
		}
		out.Response = &Response{ID: id, Result: l.Result}
		if l.Error != nil {
			out.Response.Error = l.Error.Message
			if out.Response.Error == "" {
				out.Response.Error = "error"
			}
		}
	case hasID:
		req, err := m.request(l)
		if err != nil {
			return out, err
		}
		out.Request = req
	default:
		return m.notification(l)
	}
	return out, nil
}

func (m *Mapper) notification(l rpcLine) (Mapped, error) {
	var out Mapped
	var p struct {
		ItemID     string          `json:"itemId"`
		Delta      string          `json:"delta"`
		Item       json.RawMessage `json:"item"`
		Turn       json.RawMessage `json:"turn"`
		Error      json.RawMessage `json:"error"`
		WillRetry  bool            `json:"willRetry"`
		TokenUsage *struct {
			Total codexTokens `json:"total"`
			// Last is the latest model call: its total is what the
			// conversation fills of the context window now.
			Last          codexTokens `json:"last"`
			ContextWindow int64       `json:"modelContextWindow"`
		} `json:"tokenUsage"`
		RateLimits *codexRateLimits `json:"rateLimits"`
	}
	if len(l.Params) > 0 {
		if err := json.Unmarshal(l.Params, &p); err != nil {
			return out, fmt.Errorf("codex: bad %s params: %w", l.Method, err)
		}
	}
	switch l.Method {
	case "item/agentMessage/delta":
		m.deltas[p.ItemID] = true
		if p.Delta != "" {
			out.Events = append(out.Events, Out{run.EventTokenDelta, run.TextDelta{Text: p.Delta}})
		}
	case "item/reasoning/summaryTextDelta", "item/reasoning/textDelta":
		m.deltas[p.ItemID] = true
		if p.Delta != "" {
			out.Events = append(out.Events, Out{run.EventReasoningDelta, run.TextDelta{Text: p.Delta}})
		}
	case "item/commandExecution/outputDelta":
		if p.Delta != "" {
			out.Events = append(out.Events, Out{run.EventToolUpdated, run.ToolUpdated{ToolCallID: p.ItemID, Output: p.Delta}})
		}
	case "item/started":
		var it item
		if json.Unmarshal(p.Item, &it) == nil {
			out.Events = m.itemStarted(it)
		}
	case "item/completed":
		var it item
		if json.Unmarshal(p.Item, &it) == nil {
			out.Events = m.itemCompleted(it)
		}
	case "thread/tokenUsage/updated":
		if u := p.TokenUsage; u != nil {
			out.Usage = &run.Usage{InputTokens: u.Total.InputTokens, OutputTokens: u.Total.OutputTokens,
				CachedTokens: u.Total.CachedInput, CacheWriteTokens: u.Total.CacheWrite, ReasoningTokens: u.Total.ReasoningOutput,
				ContextTokens: u.Last.TotalTokens, ContextWindow: u.ContextWindow}
		}
	case "account/rateLimits/updated":
		out.Events = append(out.Events, quotaEvents(p.RateLimits)...)
	case "error":
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(p.Error, &e)
		if !p.WillRetry && e.Message != "" {
			out.Events = append(out.Events, Out{run.EventError, run.ErrorInfo{Message: e.Message, Code: run.ErrorCodex}})
		}
	case "turn/completed":
		var t struct {
			ID     string `json:"id"`
			Status string `json:"status"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(p.Turn, &t)
		out.TurnEnd = &TurnEnd{TurnID: t.ID, Status: t.Status}
		if t.Error != nil {
			out.TurnEnd.Error = t.Error.Message
		}
	}
	return out, nil
}

func (m *Mapper) itemStarted(it item) []Out {
	switch it.Type {
	case "commandExecution":
		return []Out{{run.EventToolStarted, run.ToolStarted{ToolCallID: it.ID, Name: "shell", Title: it.Command, Kind: "execute",
			Input: map[string]string{"command": it.Command}}}}
	case "fileChange":
		var paths []string
		for _, c := range it.Changes {
			paths = append(paths, m.rel(c.Path))
		}
		return []Out{{run.EventToolStarted, run.ToolStarted{ToolCallID: it.ID, Name: "apply_patch", Title: "Edit " + strings.Join(paths, ", "),
			Kind: "edit", Locations: paths}}}
	}
	return nil
}

func (m *Mapper) itemCompleted(it item) []Out {
	var out []Out
	switch it.Type {
	case "agentMessage":
		if !m.deltas[it.ID] && it.Text != "" {
			out = append(out, Out{run.EventTokenDelta, run.TextDelta{Text: it.Text}})
		}
	case "reasoning":
		text := strings.Join(it.Summary, "\n")
		if text == "" {
			var parts []string
			_ = json.Unmarshal(it.Content, &parts)
			text = strings.Join(parts, "\n")
		}
		if text != "" {
			if !m.deltas[it.ID] {
				out = append(out, Out{run.EventReasoningDelta, run.TextDelta{Text: text}})
			}
			out = append(out, Out{run.EventReasoningDone, run.TextDone{Text: text}})
		}
	case "commandExecution":
		d := run.ToolDone{ToolCallID: it.ID, Status: toolStatus(it.Status), ExitCode: it.ExitCode}
		if it.AggregatedOutput != nil {
			d.Output = *it.AggregatedOutput
		}
		if it.DurationMs != nil {
			d.DurationMs = *it.DurationMs
		}
		if d.Status == "completed" && it.ExitCode != nil && *it.ExitCode != 0 {
			d.Status = "failed"
		}
		out = append(out, Out{run.EventToolDone, d})
	case "fileChange":
		out = append(out, Out{run.EventToolDone, run.ToolDone{ToolCallID: it.ID, Status: toolStatus(it.Status)}})
		if it.Status == "completed" {
			for _, c := range it.Changes {
				fc := fileChange(m.rel(c.Path), c.Kind.Type, c.Diff)
				fc.ToolCallID = it.ID
				out = append(out, Out{run.EventFileChanged, fc})
			}
		}
	}
	delete(m.deltas, it.ID)
	return out
}

func toolStatus(s string) string {
	switch s {
	case "declined":
		return "denied"
	case "failed":
		return "failed"
	case "inProgress":
		return "cancelled" // completed while still running: the turn was interrupted
	}
	return "completed"
}

// fileChange maps one of codex's file changes (docs/ARCHITECTURE.md
// §Events): an added file's "diff" is its content and a deleted one's its
// old content; an update's is the unified hunks, given file headers here.
func fileChange(path, kind, diff string) run.FileChanged {
	switch kind {
	case "add":
		return changes.Text(path, "", diff, true, false)
	case "delete":
		return changes.Text(path, diff, "", false, true)
	}
	fc := run.FileChanged{Path: path, Action: changeAction(kind), Source: run.SourceAgent}
	if diff == "" {
		return fc
	}
	if !strings.HasPrefix(diff, "--- ") {
		diff = "--- a/" + path + "\n+++ b/" + path + "\n" + diff
	}
	if !strings.HasSuffix(diff, "\n") {
		diff += "\n"
	}
	fc.Added, fc.Removed = changes.Count(diff)
	fc.Diff, fc.Truncated = changes.Truncate(diff, changes.MaxDiff)
	return fc
}

func changeAction(kind string) string {
	switch kind {
	case "add":
		return "created"
	case "delete":
		return "deleted"
	}
	return "modified"
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

// Decisions codex accepts for command and file approvals; they double as
// our option ids.
const (
	DecisionAccept           = "accept"
	DecisionAcceptForSession = "acceptForSession"
	DecisionDecline          = "decline"
	DecisionCancel           = "cancel"
)

var decisionOptions = map[string]run.ApprovalOption{
	DecisionAccept:           {ID: DecisionAccept, Label: "Allow", Kind: "allow_once"},
	DecisionAcceptForSession: {ID: DecisionAcceptForSession, Label: "Allow for this session", Kind: "allow_always"},
	DecisionDecline:          {ID: DecisionDecline, Label: "Deny", Kind: "reject_once"},
	DecisionCancel:           {ID: DecisionCancel, Label: "Deny and stop", Kind: "reject_always"},
}

func (m *Mapper) request(l rpcLine) (*ServerRequest, error) {
	req := &ServerRequest{ID: l.ID, Method: l.Method}
	var p struct {
		ItemID    string            `json:"itemId"`
		Command   string            `json:"command"`
		Cwd       string            `json:"cwd"`
		Reason    string            `json:"reason"`
		GrantRoot string            `json:"grantRoot"`
		Available []json.RawMessage `json:"availableDecisions"`
	}
	if len(l.Params) > 0 {
		if err := json.Unmarshal(l.Params, &p); err != nil {
			return nil, fmt.Errorf("codex: bad %s params: %w", l.Method, err)
		}
	}
	req.ItemID = p.ItemID
	var title string
	switch l.Method {
	case "item/commandExecution/requestApproval":
		title = "Run a command?"
	case "item/fileChange/requestApproval":
		title = "Apply file changes?"
	default:
		return req, nil
	}
	// Offer what codex says it accepts (strings only: the policy-amendment
	// objects need payloads a person cannot pick from a button).
	var opts []run.ApprovalOption
	for _, raw := range p.Available {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if o, ok := decisionOptions[s]; ok {
				opts = append(opts, o)
			}
		}
	}
	if len(opts) == 0 {
		opts = []run.ApprovalOption{decisionOptions[DecisionAccept], decisionOptions[DecisionAcceptForSession], decisionOptions[DecisionDecline]}
	} else if !hasOption(opts, DecisionDecline) {
		opts = append(opts, decisionOptions[DecisionDecline])
	}
	desc := p.Reason
	if desc == "" && p.GrantRoot != "" {
		desc = "Write access under " + p.GrantRoot
	}
	req.Approval = &run.ApprovalRequested{ApprovalID: "codex-" + string(l.ID), ToolCallID: p.ItemID, Title: title,
		Description: desc, Command: p.Command, Options: opts}
	return req, nil
}

func hasOption(opts []run.ApprovalOption, id string) bool {
	for _, o := range opts {
		if o.ID == id {
			return true
		}
	}
	return false
}
