package acp

import (
	"encoding/json"
	"strings"
	"testing"
)

// Tool cards are complete (docs/ARCHITECTURE.md §`approval.requested`): input that
// arrives later, output of terminals the client runs, rawOutput objects
// and arrays, and content blocks all reach the card.
func TestToolCardsAreComplete(t *testing.T) {
	terminals := map[string]string{"term_1": "hello from a terminal\n"}
	tests := []struct {
		name    string
		updates []string
		want    string
	}{
		{
			name: "input in a later update replaces the empty one (OpenCode)",
			updates: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"bash","kind":"execute","status":"pending","rawInput":{}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"in_progress","rawInput":{"command":"ls","description":"List"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawInput":{"command":"ls","description":"List"},"rawOutput":{"output":"a\nb\n"}}`,
			},
			want: `tool.started {"tool_call_id":"c1","name":"bash","title":"bash","kind":"execute"}
tool.updated {"tool_call_id":"c1","status":"in_progress","input":{"command":"ls","description":"List"}}
tool.done {"tool_call_id":"c1","status":"completed","output":"a\nb\n"}
`,
		},
		{
			name: "input first seen with the result",
			updates: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Bash","kind":"execute","status":"pending"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawInput":{"command":"pwd"},"content":[{"type":"content","content":{"type":"text","text":"/w"}}]}`,
			},
			want: `tool.started {"tool_call_id":"c1","name":"Bash","title":"Bash","kind":"execute"}
tool.updated {"tool_call_id":"c1","input":{"command":"pwd"}}
tool.done {"tool_call_id":"c1","status":"completed","output":"/w"}
`,
		},
		{
			name: "a client-run terminal's output reaches the card that embeds it (claude-code-acp, Kimi)",
			updates: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"echo","kind":"execute","status":"pending","rawInput":{"command":"echo hello"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"in_progress","content":[{"type":"terminal","terminalId":"term_1"}]}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`,
			},
			want: `tool.started {"tool_call_id":"c1","name":"echo","title":"echo","kind":"execute","input":{"command":"echo hello"}}
tool.updated {"tool_call_id":"c1","status":"in_progress"}
tool.done {"tool_call_id":"c1","status":"completed","output":"hello from a terminal\n"}
`,
		},
		{
			name: "codex-acp: rawOutput.formatted_output",
			updates: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Run","kind":"execute","status":"in_progress"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":{"exit_code":0,"formatted_output":"hello\n","stdout":"hello\n"}}`,
			},
			want: `tool.started {"tool_call_id":"c1","name":"Run","title":"Run","kind":"execute"}
tool.done {"tool_call_id":"c1","status":"completed","output":"hello\n"}
`,
		},
		{
			name: "claude-code-acp: rawOutput as an array of blocks",
			updates: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read","kind":"read","status":"in_progress"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":[{"type":"text","text":"line 1"},{"type":"text","text":"line 2"}]}`,
			},
			want: `tool.started {"tool_call_id":"c1","name":"Read","title":"Read","kind":"read"}
tool.done {"tool_call_id":"c1","status":"completed","output":"line 1\nline 2"}
`,
		},
		{
			name: "any other rawOutput object is shown as JSON",
			updates: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"search","kind":"search","status":"in_progress"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":{"matches":2}}`,
			},
			want: `tool.started {"tool_call_id":"c1","name":"search","title":"search","kind":"search"}
tool.done {"tool_call_id":"c1","status":"completed","output":"{\n  \"matches\": 2\n}"}
`,
		},
		{
			name: "content blocks: embedded resources and images",
			updates: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"read","kind":"read","status":"in_progress"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"resource","resource":{"uri":"file:///w/a","text":"file text"}}},{"type":"content","content":{"type":"image","mimeType":"image/png","data":"AA=="}}]}`,
			},
			want: `tool.started {"tool_call_id":"c1","name":"read","title":"read","kind":"read"}
tool.done {"tool_call_id":"c1","status":"completed","output":"file text\n[image image/png]"}
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMapper()
			m.Workspace = "/w"
			m.Terminal = func(id string) (string, bool) { out, ok := terminals[id]; return out, ok }
			var b strings.Builder
			for _, u := range tt.updates {
				for _, o := range m.Update(json.RawMessage(u)) {
					p, _ := json.Marshal(o.Payload)
					b.WriteString(string(o.Type) + " " + string(p) + "\n")
				}
			}
			if b.String() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}
