package fakemodel

import (
	"strings"
	"testing"
)

func mustScenarios(t testing.TB) map[string]Scenario {
	t.Helper()
	set, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestPlan(t *testing.T) {
	set := mustScenarios(t)
	shell := []string{"Read", "Bash"}
	tests := []struct {
		name      string
		conv      Conversation
		scenario  string
		step      int
		toolName  string
		toolArg   string
		textHas   string
		wantError bool
	}{
		{name: "no marker plays the default", conv: Conversation{Messages: []Message{{Role: RoleUser, Text: "hi"}}},
			scenario: "text", textHas: "Hello from the fake model"},
		{name: "tool call first", conv: Conversation{Tools: shell, Messages: []Message{{Role: RoleUser, Text: "[scenario:tool] go"}}},
			scenario: "tool", toolName: "Bash", toolArg: "echo hello > hello.txt && cat hello.txt"},
		{name: "answer after the tool result", conv: Conversation{Tools: shell, Messages: []Message{
			{Role: RoleUser, Text: "[scenario:tool] go"}, {Role: RoleAssistant}, {Role: RoleTool, Text: "done!"}}},
			scenario: "tool", step: 1, textHas: "Tool said: done!"},
		{name: "codex shell tool", conv: Conversation{Tools: []string{"exec_command"}, Messages: []Message{{Role: RoleUser, Text: "[scenario:tool]"}}},
			scenario: "tool", toolName: "exec_command", toolArg: "echo hello > hello.txt && cat hello.txt"},
		{name: "read falls back to cat", conv: Conversation{Tools: []string{"run_shell_command"}, Messages: []Message{{Role: RoleUser, Text: "[scenario:read]"}}},
			scenario: "read", toolName: "run_shell_command", toolArg: "cat notes.txt"},
		{name: "no known tool offered answers text", conv: Conversation{Tools: []string{"Read"}, Messages: []Message{{Role: RoleUser, Text: "[scenario:tool]"}}},
			scenario: "tool", textHas: "none it knows was offered"},
		{name: "a tool-less side request (a title) gets a short answer", conv: Conversation{Messages: []Message{{Role: RoleUser, Text: "Title this: [scenario:tool] go"}}},
			scenario: "tool", textHas: SideAnswer},
		{name: "latest marker wins", conv: Conversation{Tools: shell, Messages: []Message{
			{Role: RoleUser, Text: "[scenario:tool]"}, {Role: RoleAssistant}, {Role: RoleTool}, {Role: RoleAssistant, Text: "ok"},
			{Role: RoleUser, Text: "[scenario:recall] again"}}},
			scenario: "recall", textHas: "seen 2 marked user messages. The first was: [scenario:tool]"},
		{name: "unknown scenario is an error", conv: Conversation{Messages: []Message{{Role: RoleUser, Text: "[scenario:nope]"}}},
			scenario: "nope", wantError: true},
		{name: "error scenario", conv: Conversation{Messages: []Message{{Role: RoleUser, Text: "[scenario:error]"}}},
			scenario: "error", wantError: true},
		{name: "json side query", conv: Conversation{Schema: map[string]any{"type": "OBJECT", "properties": map[string]any{
			"score": map[string]any{"type": "INTEGER"}}}, Messages: []Message{{Role: RoleUser, Text: "[scenario:tool]"}}},
			scenario: "json", textHas: `{"score":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Plan(tt.conv, set)
			if r.Scenario != tt.scenario || r.Step != tt.step {
				t.Fatalf("scenario/step = %s/%d, want %s/%d", r.Scenario, r.Step, tt.scenario, tt.step)
			}
			if (r.Error != nil) != tt.wantError {
				t.Fatalf("error = %v, want %v", r.Error, tt.wantError)
			}
			if tt.toolName != "" {
				if r.Tool == nil || r.Tool.Name != tt.toolName {
					t.Fatalf("tool = %+v, want %s", r.Tool, tt.toolName)
				}
				found := false
				for _, v := range r.Tool.Args {
					found = found || v == tt.toolArg
				}
				if !found {
					t.Fatalf("tool args %v lack %q", r.Tool.Args, tt.toolArg)
				}
			} else if r.Tool != nil {
				t.Fatalf("unexpected tool %+v", r.Tool)
			}
			if !strings.Contains(r.Text(), tt.textHas) {
				t.Fatalf("text %q lacks %q", r.Text(), tt.textHas)
			}
		})
	}
}

func TestSplitWordsRoundTrips(t *testing.T) {
	for _, s := range []string{"", "a", "a b", " lead", "trail ", "many   spaces here", "tick "} {
		got := splitWords(s)
		if strings.Join(got, "") != s {
			t.Fatalf("splitWords(%q) = %q", s, got)
		}
	}
	if n := len(splitWords("one two three")); n != 3 {
		t.Fatalf("want 3 chunks, got %d", n)
	}
}

func TestSlowScenarioStreamsManyChunks(t *testing.T) {
	r := Plan(Conversation{Messages: []Message{{Role: RoleUser, Text: "[scenario:slow]"}}}, mustScenarios(t))
	if len(r.Chunks) != 600 || r.DelayMs != 50 {
		t.Fatalf("slow: %d chunks, %d ms", len(r.Chunks), r.DelayMs)
	}
}

func FuzzPlan(f *testing.F) {
	set := mustScenarios(f)
	for _, s := range []string{"hi", "[scenario:tool]", "[scenario:read] x", "[scenario:", "[scenario:recall][scenario:text]"} {
		f.Add(s, 0, true)
	}
	f.Fuzz(func(t *testing.T, text string, tools int, withTools bool) {
		c := Conversation{Messages: []Message{{Role: RoleUser, Text: text}}}
		for range tools % 4 {
			c.Messages = append(c.Messages, Message{Role: RoleAssistant}, Message{Role: RoleTool, Text: text})
		}
		if withTools {
			c.Tools = []string{"Bash"}
		}
		r := Plan(c, set)
		if r.Error == nil && r.Tool == nil && len(r.Chunks) == 0 {
			t.Fatalf("empty reply for %+v", c)
		}
	})
}
