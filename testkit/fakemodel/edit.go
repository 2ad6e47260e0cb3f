package fakemodel

import (
	"strconv"
	"strings"
)

// File edits (kinds write, edit, delete) go through the agent's own edit
// tools where it offers them, so recorded transcripts carry each CLI's
// native edit payloads (Claude Code's Write/Edit, Codex's apply_patch,
// Gemini CLI's write_file/replace); otherwise they fall back to the shell.

// chooseEditTool picks the concrete call for an edit kind; false for other
// kinds and for edits no offered tool can make (spec is then rewritten to
// a shell fallback where one exists).
func chooseEditTool(spec *ToolSpec, c Conversation, has map[string]bool, id string) (ToolCall, bool) {
	switch spec.Kind {
	case "write", "edit", "delete":
	default:
		return ToolCall{}, false
	}
	if has["apply_patch"] {
		patch := applyPatch(*spec)
		for _, f := range c.Freeform {
			if f == "apply_patch" {
				return ToolCall{ID: id, Name: "apply_patch", Args: map[string]any{}, Input: patch}, true
			}
		}
		return ToolCall{ID: id, Name: "apply_patch", Args: map[string]any{"input": patch}}, true
	}
	switch {
	case spec.Kind == "write" && has["Write"]: // Claude Code
		return ToolCall{ID: id, Name: "Write", Args: map[string]any{"file_path": spec.Path, "content": spec.Content}}, true
	case spec.Kind == "edit" && has["Edit"]:
		return ToolCall{ID: id, Name: "Edit", Args: map[string]any{"file_path": spec.Path, "old_string": spec.Old, "new_string": spec.New}}, true
	case spec.Kind == "write" && has["write_file"]: // Gemini CLI
		return ToolCall{ID: id, Name: "write_file", Args: map[string]any{"file_path": spec.Path, "content": spec.Content}}, true
	case spec.Kind == "edit" && has["replace"]:
		// Gemini CLI 0.61.0's replace also requires an instruction.
		return ToolCall{ID: id, Name: "replace", Args: map[string]any{"file_path": spec.Path, "old_string": spec.Old, "new_string": spec.New,
			"instruction": "Replace " + strconv.Quote(spec.Old) + " in " + spec.Path + "."}}, true
	case spec.Kind == "write":
		*spec = ToolSpec{Kind: "shell", Command: "printf '%s' " + shellQuote(spec.Content) + " > " + shellQuote(spec.Path)}
	case spec.Kind == "delete":
		*spec = ToolSpec{Kind: "shell", Command: "rm -f " + shellQuote(spec.Path)}
	default:
		// An edit with no edit tool: a Perl one-liner would hide the edit
		// from the agent's structured output anyway; say none fits.
		*spec = ToolSpec{Kind: "none"}
	}
	return ToolCall{}, false
}

// applyPatch writes spec as Codex's apply_patch format: an added file's
// lines, an update's old lines removed and new ones added, a deletion.
func applyPatch(spec ToolSpec) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	switch spec.Kind {
	case "write":
		b.WriteString("*** Add File: " + spec.Path + "\n")
		b.WriteString(prefixLines("+", spec.Content))
	case "edit":
		b.WriteString("*** Update File: " + spec.Path + "\n@@\n")
		b.WriteString(prefixLines("-", spec.Old))
		b.WriteString(prefixLines("+", spec.New))
	case "delete":
		b.WriteString("*** Delete File: " + spec.Path + "\n")
	}
	b.WriteString("*** End Patch")
	return b.String()
}

func prefixLines(p, s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		b.WriteString(p + l + "\n")
	}
	return b.String()
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
