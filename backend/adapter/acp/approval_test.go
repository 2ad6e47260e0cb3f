package acp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

var allowReject = `[{"optionId":"allow-once","name":"Allow","kind":"allow_once"},{"optionId":"reject-once","name":"Reject","kind":"reject_once"}]`

// approvalFor maps the earlier updates through one mapper, then the
// permission request merged with what it knows, as conn.permission does.
func approvalFor(t *testing.T, earlier []string, request string) run.ApprovalRequested {
	t.Helper()
	m := NewMapper()
	m.Workspace = "/w"
	for _, u := range earlier {
		m.Update(json.RawMessage(u))
	}
	var p permissionParams
	if err := json.Unmarshal([]byte(request), &p); err != nil {
		t.Fatal(err)
	}
	ev, err := approvalRequested(p, m.Known(toolCallIDOf(p.ToolCall)), "appr_1", m.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// Shown = approved: each shape of permission request seen from a real
// agent (docs/ARCHITECTURE.md §`approval.requested`; ../shared/reference/acp-agents.md)
// shows what will run.
func TestApprovalShowsWhatIsApproved(t *testing.T) {
	tests := []struct {
		name    string
		earlier []string
		request string
		want    run.ApprovalRequested // ApprovalID, Options and ToolCallID are checked apart
	}{
		{
			name:    "full: title, kind, rawInput in the request",
			request: `{"toolCall":{"toolCallId":"c1","title":"Run ls","kind":"execute","rawInput":{"command":"ls -la"},"locations":[{"path":"/w/src"}]},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "Run ls", Kind: "execute", Command: "ls -la", Locations: []string{"/w/src"}},
		},
		{
			name: "Vibe: only the toolCallId of a call announced before",
			earlier: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"bash","kind":"execute","status":"pending","rawInput":{"command":"rm -rf ~/important"}}`,
			},
			request: `{"toolCall":{"toolCallId":"c1"},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "bash", Kind: "execute", Command: "rm -rf ~/important"},
		},
		{
			name: "the command came in a later update (OpenCode)",
			earlier: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"bash","kind":"execute","status":"pending","rawInput":{}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","rawInput":{"command":"echo hi > a.txt","description":"Writes a file"}}`,
			},
			request: `{"toolCall":{"toolCallId":"c1","title":"bash"},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "bash", Kind: "execute", Command: "echo hi > a.txt", Description: "Writes a file"},
		},
		{
			name:    "codex-acp: an argv is shown shell-quoted as it will run",
			request: `{"toolCall":{"toolCallId":"c1","title":"Run command","kind":"execute","rawInput":{"command":["/bin/bash","-lc","echo hello > hello.txt && echo x"]}},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "Run command", Kind: "execute", Command: `/bin/bash -lc 'echo hello > hello.txt && echo x'`},
		},
		{
			name:    "codex-acp exec_command: cmd argv",
			request: `{"toolCall":{"toolCallId":"c1","title":"exec","rawInput":{"cmd":["rm","-rf","my dir"]}},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "exec", Command: `rm -rf 'my dir'`},
		},
		{
			name:    "a command with separate args",
			request: `{"toolCall":{"toolCallId":"c1","title":"Terminal","rawInput":{"command":"git","args":["commit","-m","a b; rm x"]}},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "Terminal", Command: `git commit -m 'a b; rm x'`},
		},
		{
			name:    "Kimi: title only, no rawInput",
			request: `{"toolCall":{"toolCallId":"c1","title":"Shell: echo hello"},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "Shell: echo hello"},
		},
		{
			name:    "Gemini: an execute call titled with its command",
			request: `{"toolCall":{"toolCallId":"c1","title":"npm test","kind":"execute"},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "npm test", Kind: "execute", Command: "npm test"},
		},
		{
			name: "an edit: the diff is shown",
			earlier: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Edit a.txt","kind":"edit","status":"pending","locations":[{"path":"/w/a.txt"}]}`,
			},
			request: `{"toolCall":{"toolCallId":"c1","content":[{"type":"diff","path":"/w/a.txt","oldText":"one\n","newText":"two\n"}]},"options":` + allowReject + `}`,
			want: run.ApprovalRequested{Title: "Edit a.txt", Kind: "edit", Locations: []string{"/w/a.txt"},
				Diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"},
		},
		{
			name:    "a tool that is not a shell: its input is shown",
			request: `{"toolCall":{"toolCallId":"c1","title":"fetch","rawInput":{"url":"https://example.com"}},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "fetch", Input: json.RawMessage(`{"url":"https://example.com"}`)},
		},
		{
			name:    "nothing to show says so",
			request: `{"toolCall":{"toolCallId":"c9"},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: Unexplained, Unexplained: true},
		},
		{
			name:    "a kind alone is nothing to judge",
			request: `{"toolCall":{"toolCallId":"c9","kind":"execute","rawInput":{}},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: Unexplained, Kind: "execute", Unexplained: true},
		},
		{
			name:    "no toolCall at all",
			request: `{"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: Unexplained, Unexplained: true},
		},
		{
			name:    "a command without a title",
			request: `{"toolCall":{"toolCallId":"c1","rawInput":{"command":"make"}},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "The agent asks for permission", Command: "make"},
		},
		{
			name: "the request's own title wins over an earlier one",
			earlier: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"bash","kind":"execute","rawInput":{"command":"ls"}}`,
			},
			request: `{"toolCall":{"toolCallId":"c1","title":"List files"},"options":` + allowReject + `}`,
			want:    run.ApprovalRequested{Title: "List files", Kind: "execute", Command: "ls"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := approvalFor(t, tt.earlier, tt.request)
			if got.ApprovalID != "appr_1" || len(got.Options) != 2 || got.Options[1].Label != "Reject" {
				t.Fatalf("id/options: %+v", got)
			}
			got.ApprovalID, got.Options, got.ToolCallID = "", nil, ""
			if in, ok := got.Input.(json.RawMessage); ok {
				got.Input = json.RawMessage(in) // compare bytes
			}
			if !reflect.DeepEqual(got, tt.want) {
				gb, _ := json.Marshal(got)
				wb, _ := json.Marshal(tt.want)
				t.Fatalf("got  %s\nwant %s", gb, wb)
			}
		})
	}
}

// Qwen Code's option ids are its own; the words allow/deny and the kinds
// still pick them, and their names are the buttons.
func TestApprovalOptionsQwen(t *testing.T) {
	p := permissionParams{
		ToolCall: json.RawMessage(`{"toolCallId":"c1","title":"run_shell_command","kind":"execute","rawInput":{"command":"ls"}}`),
		Options: []wireOption{{OptionID: "proceed_once", Name: "Allow", Kind: "allow_once"},
			{OptionID: "proceed_always_project", Name: "Always allow in this project", Kind: "allow_always"},
			{OptionID: "cancel", Name: "Reject", Kind: "reject_once"}},
	}
	ev, err := approvalRequested(p, toolInfo{}, "appr_1", "/w")
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Options) != 3 || ev.Options[1].ID != "proceed_always_project" || ev.Options[1].Label != "Always allow in this project" || ev.Command != "ls" {
		t.Fatalf("%+v", ev)
	}
	if _, err := approvalRequested(permissionParams{}, toolInfo{}, "x", ""); err == nil {
		t.Fatal("a permission request without options must be refused")
	}
	for answer, want := range map[string]string{"proceed_once": "proceed_once", "cancel": "cancel", "allow": "proceed_once", "deny": "cancel", "reject_once": "cancel", "always": "proceed_always_project", "maybe": ""} {
		o, ok := pickOption(p.Options, answer)
		if got := map[bool]string{true: o.OptionID, false: ""}[ok]; got != want {
			t.Errorf("pickOption(%q) = %q; want %q", answer, got, want)
		}
	}
}

// FuzzApprovalMerge: any earlier update and any permission request merge
// without a panic, and a request whose card would show nothing is marked
// Unexplained — never an empty card with a plain Allow.
func FuzzApprovalMerge(f *testing.F) {
	f.Add(`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"bash","rawInput":{"command":"ls"}}`, `{"toolCall":{"toolCallId":"c1"},"options":[{"optionId":"a","kind":"allow_once"}]}`)
	f.Add(`{"sessionUpdate":"tool_call","toolCallId":"c1","rawInput":{"command":["a","b c"]}}`, `{"toolCall":{"toolCallId":"c1","title":""},"options":[{"optionId":"a"}]}`)
	f.Add(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","content":[{"type":"diff","path":"/w/x","newText":"y"}]}`, `{"toolCall":{"toolCallId":"c1","rawInput":{"cmd":"x","args":[1]}},"options":[{"optionId":"a"}]}`)
	f.Add(`{}`, `{"toolCall":null,"options":[{"optionId":"a"}]}`)
	f.Fuzz(func(t *testing.T, earlier, request string) {
		m := NewMapper()
		m.Workspace = "/w"
		m.Update(json.RawMessage(earlier))
		var p permissionParams
		if json.Unmarshal([]byte(request), &p) != nil {
			return
		}
		ev, err := approvalRequested(p, m.Known(toolCallIDOf(p.ToolCall)), "a", "/w")
		if err != nil {
			return
		}
		shows := strings.TrimSpace(ev.Command+ev.Description+ev.Diff) != "" || len(ev.Locations) > 0 || ev.Input != nil
		if ev.Title == "" {
			t.Fatal("an approval without a title")
		}
		if !shows && !ev.Unexplained && ev.Title == "The agent asks for permission" {
			t.Fatalf("a card that shows nothing is not marked unexplained: %+v", ev)
		}
		if ev.Unexplained && (shows || ev.Title != Unexplained) {
			t.Fatalf("marked unexplained but shows something: %+v", ev)
		}
		m.ToolSeen(p.ToolCall)
	})
}
