package fakemodel

import (
	"encoding/json"
	"reflect"
	"testing"
)

func schema(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The shell tool each agent of shared/reference/acp-agents.md declares,
// and the shapes an unknown agent could use, are found by name or schema.
func TestChooseShell(t *testing.T) {
	const cmd = "echo hello > hello.txt"
	str := `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`
	tests := []struct {
		name    string
		tools   map[string]string // name → parameters schema ("" = none given)
		order   []string
		want    string
		args    map[string]any
		noMatch bool
	}{
		{name: "Claude Bash", tools: map[string]string{"Read": "", "Bash": str}, order: []string{"Read", "Bash"},
			want: "Bash", args: map[string]any{"command": cmd}},
		{name: "codex exec_command without schema", tools: map[string]string{"exec_command": ""}, order: []string{"exec_command"},
			want: "exec_command", args: map[string]any{"cmd": cmd}},
		{name: "Qwen run_shell_command", tools: map[string]string{"read_file": "", "run_shell_command": str},
			order: []string{"read_file", "run_shell_command"}, want: "run_shell_command", args: map[string]any{"command": cmd}},
		{name: "Kimi Shell", tools: map[string]string{"ReadFile": "", "Shell": str}, order: []string{"ReadFile", "Shell"},
			want: "Shell", args: map[string]any{"command": cmd}},
		{name: "OpenCode bash fills its required description", order: []string{"read", "bash"}, tools: map[string]string{"read": "",
			"bash": `{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"},"timeout":{"type":"number"}},"required":["command","description"]}`},
			want: "bash", args: map[string]any{"command": cmd, "description": "Run the scenario's command"}},
		{name: "Copilot bash fills a required enum", order: []string{"bash"}, tools: map[string]string{
			"bash": `{"type":"object","properties":{"command":{"type":"string"},"mode":{"type":"string","enum":["sync","async"]}},"required":["command","mode"]}`},
			want: "bash", args: map[string]any{"command": cmd, "mode": "sync"}},
		{name: "known name with a cmd schema", order: []string{"shell"}, tools: map[string]string{
			"shell": `{"type":"object","properties":{"cmd":{"type":"string"}}}`},
			want: "shell", args: map[string]any{"cmd": cmd}},
		{name: "argv array", order: []string{"shell"}, tools: map[string]string{
			"shell": `{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}}}}`},
			want: "shell", args: map[string]any{"command": []any{"bash", "-lc", cmd}}},
		{name: "unknown name by schema", order: []string{"grep", "run_in_sandbox"}, tools: map[string]string{
			"grep":           `{"type":"object","properties":{"pattern":{"type":"string"}}}`,
			"run_in_sandbox": `{"type":"object","properties":{"cmd":{"type":["string","null"]}}}`},
			want: "run_in_sandbox", args: map[string]any{"cmd": cmd}},
		{name: "shell-like name wins among schema matches", order: []string{"task", "mcp__acp__Bash"}, tools: map[string]string{
			"task":           str,
			"mcp__acp__Bash": str},
			want: "mcp__acp__Bash", args: map[string]any{"command": cmd}},
		{name: "a string args is not a command", order: []string{"launch"}, tools: map[string]string{
			"launch": `{"type":"object","properties":{"args":{"type":"string"}}}`}, noMatch: true},
		{name: "no shell at all", order: []string{"Read"}, tools: map[string]string{"Read": ""}, noMatch: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Conversation
			for _, n := range tt.order {
				var params map[string]any
				if s := tt.tools[n]; s != "" {
					params = schema(t, s)
				}
				c.addTool(n, params)
			}
			has := map[string]bool{}
			for _, n := range c.Tools {
				has[n] = true
			}
			call, ok := chooseShell(cmd, c, has, "id1")
			if ok == tt.noMatch {
				t.Fatalf("ok = %v, call %+v", ok, call)
			}
			if tt.noMatch {
				return
			}
			if call.Name != tt.want || !reflect.DeepEqual(call.Args, tt.args) {
				t.Fatalf("call %s %v, want %s %v", call.Name, call.Args, tt.want, tt.args)
			}
		})
	}
}

// Tool schemas come from the agent's request: whatever their shape
// (loops of $refs, odd types), choosing a shell or todo tool never panics
// and a chosen shell call carries the command.
func FuzzToolSchemas(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"}},"required":["command","description"]}`,
		`{"type":"object","properties":{"argv":{"type":"array"}}}`,
		`{"$defs":{"A":{"$ref":"#/$defs/A"}},"properties":{"todos":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/A"}},{"type":"null"}]}}}`,
		`{"properties":{"command":{"type":["null"]}},"required":[1,"x",null]}`,
		`[]`,
	} {
		f.Add("tool", s)
		f.Add("todo_write", s)
	}
	f.Fuzz(func(t *testing.T, name, raw string) {
		var params map[string]any
		if json.Unmarshal([]byte(raw), &params) != nil {
			return
		}
		var c Conversation
		c.addTool(name, params)
		has := map[string]bool{name: true}
		if call, ok := chooseShell("echo x", c, has, "id"); ok {
			found := false
			for _, v := range call.Args {
				found = found || v == "echo x" || reflect.DeepEqual(v, []any{"bash", "-lc", "echo x"})
			}
			if !found {
				t.Fatalf("shell call %+v lacks the command", call)
			}
		}
		_, _ = chooseTodo("Plan", c, "id")
	})
}
