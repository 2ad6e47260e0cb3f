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

// Unexplained is the title of a permission request that names nothing a
// person could judge: its Allow needs a second click.
const Unexplained = "The agent did not say what it wants to do"

// approvalRequested maps a permission request to the normalized event,
// merged with everything known about its tool call before it (known, from
// the turn's mapper): what is shown is what is approved
// (docs/ARCHITECTURE.md §`approval.requested`). Pure: the caller supplies the
// approval id; workspace makes diff paths relative.
func approvalRequested(p permissionParams, known toolInfo, approvalID, workspace string) (run.ApprovalRequested, error) {
	if len(p.Options) == 0 {
		return run.ApprovalRequested{}, fmt.Errorf("%w: permission request without options", errMalformed)
	}
	var tc wireUpdate
	if len(p.ToolCall) > 0 && string(p.ToolCall) != "null" {
		if err := json.Unmarshal(p.ToolCall, &tc); err != nil {
			return run.ApprovalRequested{}, fmt.Errorf("%w: permission toolCall: %v", errMalformed, err)
		}
	}
	k := known.with(tc)
	ev := run.ApprovalRequested{
		ApprovalID: approvalID, ToolCallID: tc.ToolCallID,
		Title: strings.TrimSpace(k.Title), Kind: k.Kind, Locations: k.Locations,
		Command: commandOf(k.RawInput),
	}
	if ev.Command == "" && k.Kind == "execute" {
		ev.Command = ev.Title // Gemini titles a shell call with the command itself
	}
	var diffs []string
	for _, fc := range diffChanges(workspace, "", k.Content) {
		if fc.Diff != "" {
			diffs = append(diffs, fc.Diff)
		} else if fc.Path != "" {
			diffs = append(diffs, fc.Action+" "+fc.Path)
		}
	}
	ev.Diff = strings.Join(diffs, "\n")
	ev.Description = toolText(k.Content, nil)
	if ev.Diff != "" {
		ev.Description = textOnly(k.Content) // the diff itself is shown
	}
	if ev.Description == "" {
		ev.Description = inputDescription(k.RawInput)
	}
	if ev.Command == "" && hasInput(k.RawInput) {
		ev.Input = k.RawInput // a tool that is not a shell: its arguments are what is approved
	}
	if ev.Title == "" && ev.Command == "" && ev.Description == "" && ev.Diff == "" && len(ev.Locations) == 0 && ev.Input == nil {
		ev.Title, ev.Unexplained = Unexplained, true
	} else if ev.Title == "" {
		ev.Title = "The agent asks for permission"
	}
	for _, o := range p.Options {
		ev.Options = append(ev.Options, run.ApprovalOption{ID: o.OptionID, Label: orStr(o.Name, o.OptionID), Kind: o.Kind})
	}
	return ev, nil
}

// pickOption resolves a person's answer to one of the offered options
// (run.MatchOption: an option id, a kind, or allow/deny).
func pickOption(opts []wireOption, answer string) (wireOption, bool) {
	ro := make([]run.ApprovalOption, len(opts))
	for i, o := range opts {
		ro[i] = run.ApprovalOption{ID: o.OptionID, Label: o.Name, Kind: o.Kind}
	}
	o, ok := run.MatchOption(ro, answer)
	if !ok {
		return wireOption{}, false
	}
	for _, w := range opts {
		if w.OptionID == o.ID {
			return w, true
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
		InputTokens       int64  `json:"inputTokens"`
		OutputTokens      int64  `json:"outputTokens"`
		ThoughtTokens     *int64 `json:"thoughtTokens"`
		CachedReadTokens  *int64 `json:"cachedReadTokens"`
		CachedWriteTokens *int64 `json:"cachedWriteTokens"`
	} `json:"usage"`
	Meta struct {
		// Gemini CLI reports tokens here rather than in "usage".
		Quota struct {
			TokenCount *struct {
				InputTokens  int64 `json:"input_tokens"`
				OutputTokens int64 `json:"output_tokens"`
			} `json:"token_count"`
			// ModelUsage names the model(s) the turn spent on.
			ModelUsage []struct {
				Model string `json:"model"`
			} `json:"model_usage"`
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
		if r.Usage.CachedWriteTokens != nil {
			u.CacheWriteTokens = *r.Usage.CachedWriteTokens
		}
		return u
	case r.Meta.Quota.TokenCount != nil:
		q := r.Meta.Quota
		u := &run.Usage{InputTokens: q.TokenCount.InputTokens, OutputTokens: q.TokenCount.OutputTokens}
		// One model named: the run's, so the shim can price it
		// (docs/ARCHITECTURE.md §Usage); several: their sum has no one price.
		if len(q.ModelUsage) == 1 {
			u.Model = q.ModelUsage[0].Model
		}
		return u
	}
	return nil
}
