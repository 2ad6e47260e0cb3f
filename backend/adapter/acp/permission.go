package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// permissionParams is session/request_permission's params.
type permissionParams struct {
	SessionID string          `json:"sessionId"`
	ToolCall  json.RawMessage `json:"toolCall"`
	Options   []wireOption    `json:"options"`
}

type wireOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

// approvalRequested maps a permission request to the normalized event.
// Pure: the caller supplies the approval id.
func approvalRequested(p permissionParams, approvalID string) (run.ApprovalRequested, error) {
	if len(p.Options) == 0 {
		return run.ApprovalRequested{}, fmt.Errorf("%w: permission request without options", errMalformed)
	}
	var tc wireUpdate
	if len(p.ToolCall) > 0 {
		if err := json.Unmarshal(p.ToolCall, &tc); err != nil {
			return run.ApprovalRequested{}, fmt.Errorf("%w: permission toolCall: %v", errMalformed, err)
		}
	}
	ev := run.ApprovalRequested{ApprovalID: approvalID, ToolCallID: tc.ToolCallID, Description: toolText(tc.Content, nil)}
	if tc.Title != nil {
		ev.Title = *tc.Title
	}
	ev.Command = commandOf(tc.RawInput)
	if ev.Command == "" && tc.ToolKind == "execute" {
		ev.Command = ev.Title // Gemini titles a shell call with the command itself
	}
	if ev.Title == "" {
		ev.Title = "The agent asks for permission"
	}
	for _, o := range p.Options {
		ev.Options = append(ev.Options, run.ApprovalOption{ID: o.OptionID, Label: orStr(o.Name, o.OptionID), Kind: o.Kind})
	}
	return ev, nil
}

// commandOf reads rawInput.command as a string or an argv array.
func commandOf(rawInput json.RawMessage) string {
	var in struct {
		Command json.RawMessage `json:"command"`
	}
	if len(rawInput) == 0 || json.Unmarshal(rawInput, &in) != nil || len(in.Command) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(in.Command, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(in.Command, &argv) == nil {
		return strings.Join(argv, " ")
	}
	return ""
}

// pickOption resolves a person's answer to one of the offered options: an
// option id; else an ACP kind (allow_once, reject_always…); else the words
// "allow"/"approve"/"yes" or "deny"/"reject"/"no", for callers that only
// know yes or no. ok is false if nothing matches.
func pickOption(opts []wireOption, answer string) (wireOption, bool) {
	for _, o := range opts {
		if o.OptionID == answer {
			return o, true
		}
	}
	kinds := []string{answer}
	switch strings.ToLower(answer) {
	case "allow", "approve", "approved", "yes", "once":
		kinds = []string{"allow_once", "allow_always"}
	case "always":
		kinds = []string{"allow_always"}
	case "deny", "denied", "reject", "no":
		kinds = []string{"reject_once", "reject_always"}
	}
	for _, k := range kinds {
		for _, o := range opts {
			if o.Kind == k {
				return o, true
			}
		}
	}
	return wireOption{}, false
}

// isReject reports whether an option refuses the action.
func isReject(o wireOption) bool { return strings.HasPrefix(o.Kind, "reject") }

// promptResult is session/prompt's result.
type promptResult struct {
	StopReason string `json:"stopReason"`
	Usage      *struct {
		InputTokens      int64  `json:"inputTokens"`
		OutputTokens     int64  `json:"outputTokens"`
		ThoughtTokens    *int64 `json:"thoughtTokens"`
		CachedReadTokens *int64 `json:"cachedReadTokens"`
	} `json:"usage"`
	Meta struct {
		// Gemini CLI reports tokens here rather than in "usage".
		Quota struct {
			TokenCount *struct {
				InputTokens  int64 `json:"input_tokens"`
				OutputTokens int64 `json:"output_tokens"`
			} `json:"token_count"`
		} `json:"quota"`
	} `json:"_meta"`
}

// usage extracts token usage, nil when the agent reported none.
func (r promptResult) usage() *run.Usage {
	switch {
	case r.Usage != nil:
		u := &run.Usage{InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens}
		if r.Usage.ThoughtTokens != nil {
			u.ReasoningTokens = *r.Usage.ThoughtTokens
		}
		if r.Usage.CachedReadTokens != nil {
			u.CachedTokens = *r.Usage.CachedReadTokens
		}
		return u
	case r.Meta.Quota.TokenCount != nil:
		return &run.Usage{InputTokens: r.Meta.Quota.TokenCount.InputTokens, OutputTokens: r.Meta.Quota.TokenCount.OutputTokens}
	}
	return nil
}
