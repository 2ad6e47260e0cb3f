package fakemodel

import (
	"strings"
	"testing"
)

// The edit scenario's steps go through each agent's own edit tools, else
// the shell; an edit no offered tool can make is answered in words.
func TestEditScenarioChoosesTheAgentsEditTools(t *testing.T) {
	set := mustScenarios(t)
	at := func(tools, freeform []string, step int) Reply {
		c := Conversation{Tools: tools, Freeform: freeform, Messages: []Message{{Role: RoleUser, Text: "[scenario:edit] go"}}}
		for range step {
			c.Messages = append(c.Messages, Message{Role: RoleAssistant}, Message{Role: RoleTool, Text: "ok"})
		}
		return Plan(c, set)
	}
	claude, codex := []string{"Bash", "Edit", "Read", "Write"}, []string{"exec_command", "apply_patch"}
	tests := []struct {
		name  string
		reply Reply
		tool  string
		args  map[string]any
		input string
		text  string
	}{
		{"claude write", at(claude, nil, 0), "Write", map[string]any{"file_path": "notes.md", "content": "## Todo\n- write tests\n"}, "", ""},
		{"claude edit", at(claude, nil, 1), "Edit", map[string]any{"file_path": "notes.md", "old_string": "- write tests\n", "new_string": "- write tests\n- ship it\n"}, "", ""},
		{"claude delete by shell", at(claude, nil, 4), "Bash", map[string]any{"command": "rm -f 'old.txt'"}, "", ""},
		{"codex add (freeform)", at(codex, []string{"apply_patch"}, 0), "apply_patch", map[string]any{},
			"*** Begin Patch\n*** Add File: notes.md\n+## Todo\n+- write tests\n*** End Patch", ""},
		{"codex update", at(codex, []string{"apply_patch"}, 1), "apply_patch", map[string]any{},
			"*** Begin Patch\n*** Update File: notes.md\n@@\n-- write tests\n+- write tests\n+- ship it\n*** End Patch", ""},
		{"codex delete", at(codex, []string{"apply_patch"}, 4), "apply_patch", map[string]any{}, "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch", ""},
		{"apply_patch as a function", at(codex, nil, 4), "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch"}, "", ""},
		{"gemini replace", at([]string{"run_shell_command", "write_file", "replace"}, nil, 1), "replace",
			map[string]any{"file_path": "notes.md", "old_string": "- write tests\n", "new_string": "- write tests\n- ship it\n",
				"instruction": `Replace "- write tests\n" in notes.md.`}, "", ""},
		{"write by shell", at([]string{"terminal"}, nil, 2), "terminal", map[string]any{"command": "printf '%s' 'hello\nworld\n' > 'hello.txt'"}, "", ""},
		{"edit with no edit tool", at([]string{"terminal"}, nil, 1), "", nil, "", "none it knows was offered"},
		{"answer after the last edit", at(claude, nil, 5), "", nil, "", "Done: notes.md edited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.reply
			if tt.tool == "" {
				if r.Tool != nil || !strings.Contains(r.Text(), tt.text) {
					t.Fatalf("tool %+v, text %q; want text with %q", r.Tool, r.Text(), tt.text)
				}
				return
			}
			if r.Tool == nil || r.Tool.Name != tt.tool || r.Tool.Input != tt.input || string(marshal(r.Tool.Args)) != string(marshal(tt.args)) {
				t.Fatalf("tool %+v, want %s %v %q", r.Tool, tt.tool, tt.args, tt.input)
			}
		})
	}
}
