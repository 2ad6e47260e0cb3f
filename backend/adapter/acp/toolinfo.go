package acp

import (
	"bytes"
	"encoding/json"
	"strings"

	"al.essio.dev/pkg/shellescape"
)

// toolInfo is everything an agent has said about one tool call so far,
// across its tool_call, every tool_call_update and the permission request
// (docs/ARCHITECTURE.md §`approval.requested` — shown = approved). Agents spread it:
// Mistral Vibe asks permission naming only the toolCallId of a call it
// announced with rawInput.command; OpenCode and the Claude wrappers send
// the command in a later update.
type toolInfo struct {
	Title     string
	Kind      string
	Locations []string
	RawInput  json.RawMessage // the latest input that says something
	Content   json.RawMessage // the latest non-empty content list
	Terminals []string        // client-run terminals the call embeds, in order
}

// with returns k updated by one tool_call, tool_call_update or a
// permission request's toolCall: what u says replaces what was known,
// what u leaves out is kept.
func (k toolInfo) with(u wireUpdate) toolInfo {
	if u.Title != nil && strings.TrimSpace(*u.Title) != "" {
		k.Title = *u.Title
	}
	if u.ToolKind != "" {
		k.Kind = u.ToolKind
	}
	if locs := locationPaths(u.Locations); len(locs) > 0 {
		k.Locations = locs
	}
	if hasInput(u.RawInput) {
		k.RawInput = u.RawInput
	}
	if items := contentItems(u.Content); len(items) > 0 {
		k.Content = u.Content
		for _, it := range items {
			if it.Type == "terminal" && it.TerminalID != "" && !contains(k.Terminals, it.TerminalID) {
				k.Terminals = append(k.Terminals, it.TerminalID)
			}
		}
	}
	return k
}

func locationPaths(ls []wireLocation) []string {
	var out []string
	for _, l := range ls {
		if l.Path != "" {
			out = append(out, l.Path)
		}
	}
	return out
}

// hasInput: rawInput that says something — not absent, null, {} or [].
// OpenCode announces a call with {} and sends the command later.
func hasInput(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || !json.Valid(t) {
		return false
	}
	var v any
	if json.Unmarshal(t, &v) != nil {
		return false
	}
	switch x := v.(type) {
	case nil:
		return false
	case map[string]any:
		return len(x) > 0
	case []any:
		return len(x) > 0
	case string:
		return x != ""
	}
	return true
}

func contentItems(raw json.RawMessage) []wireToolContent {
	var items []wireToolContent
	if len(raw) == 0 || json.Unmarshal(raw, &items) != nil {
		return nil
	}
	return items
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// commandOf reads the command a tool call runs from its rawInput: the key
// "command" (most agents) or "cmd" (codex-acp's exec_command), as a string
// or an argv array, with an "args" array after a string command. An argv is
// shown shell-quoted, exactly as it will run: ["bash","-lc","a && b"] reads
// `bash -lc 'a && b'`, never `bash -lc a && b`.
func commandOf(rawInput json.RawMessage) string {
	var in map[string]json.RawMessage
	if len(rawInput) == 0 || json.Unmarshal(rawInput, &in) != nil {
		return ""
	}
	for _, key := range []string{"command", "cmd"} {
		raw, ok := in[key]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil && strings.TrimSpace(s) != "" {
			var args []string
			if a, ok := in["args"]; ok && json.Unmarshal(a, &args) == nil && len(args) > 0 {
				return s + " " + shellescape.QuoteCommand(args)
			}
			return s
		}
		var argv []string
		if json.Unmarshal(raw, &argv) == nil && len(argv) > 0 {
			return shellescape.QuoteCommand(argv)
		}
	}
	return ""
}

// inputDescription is rawInput's own "description" (OpenCode's bash tool
// says what a command is for).
func inputDescription(rawInput json.RawMessage) string {
	var in struct {
		Description string `json:"description"`
	}
	if len(rawInput) == 0 || json.Unmarshal(rawInput, &in) != nil {
		return ""
	}
	return strings.TrimSpace(in.Description)
}

// toolCallIDOf reads a permission request's toolCall.toolCallId.
func toolCallIDOf(toolCall json.RawMessage) string {
	var tc struct {
		ToolCallID string `json:"toolCallId"`
	}
	_ = json.Unmarshal(toolCall, &tc)
	return tc.ToolCallID
}
