package history

import "strings"

// toolKinds are the agents' tool names by the kind a tool card shows
// (execute, edit, read, …), one table for every format.
var toolKinds = map[string]string{
	// Codex
	"exec_command": "execute", "shell": "execute", "container.exec": "execute", "local_shell": "execute",
	"write_stdin": "execute", "unified_exec": "execute", "apply_patch": "edit", "view_image": "read",
	"list_dir": "read", "grep_files": "search", "update_plan": "think",
	// Gemini CLI and Qwen Code (a fork of it)
	"run_shell_command": "execute", "write_file": "edit", "replace": "edit", "edit": "edit", "read_file": "read",
	"read_many_files": "read", "list_directory": "read", "glob": "search", "search_file_content": "search",
	"grep_search": "search", "web_fetch": "fetch", "google_web_search": "fetch", "web_search": "fetch",
	"write_todos": "think", "todo_write": "think", "save_memory": "other",
	// OpenCode
	"bash": "execute", "write": "edit", "patch": "edit", "multiedit": "edit", "read": "read", "list": "read",
	"grep": "search", "webfetch": "fetch", "todowrite": "think", "todoread": "think",
	// Hermes Agent
	"terminal": "execute", "search_files": "search", "execute_code": "execute", "todo": "think",
}

// toolKind is the card kind of a tool name ("other" when unknown).
func toolKind(name string) string {
	if k, ok := toolKinds[name]; ok {
		return k
	}
	return "other"
}

func toolTitle(name string, in map[string]any) string {
	for _, k := range []string{"cmd", "command", "path", "file_path", "query"} {
		switch v := in[k].(type) {
		case string:
			if v != "" {
				return name + ": " + firstLineOf(v)
			}
		case []any:
			var parts []string
			for _, p := range v {
				if s, ok := p.(string); ok {
					parts = append(parts, s)
				}
			}
			if len(parts) > 0 {
				return name + ": " + firstLineOf(strings.Join(parts, " "))
			}
		}
	}
	return name
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}

// treePath is the conversation of a tree of records (Claude Code, Qwen
// Code): from leaf back through parent to the root, oldest first. A
// damaged file may hold a cycle; it ends the walk.
func treePath(leaf int, parent func(i int) (int, bool)) []int {
	var rev []int
	seen := map[int]bool{}
	for i, ok := leaf, true; ok && !seen[i]; i, ok = parent(i) {
		seen[i] = true
		rev = append(rev, i)
	}
	for a, b := 0, len(rev)-1; a < b; a, b = a+1, b-1 {
		rev[a], rev[b] = rev[b], rev[a]
	}
	return rev
}
