package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mapAll feeds updates (JSON objects) through one mapper and renders the
// events compactly as "type payload" lines.
func mapAll(t *testing.T, finish string, updates ...string) (string, *Mapper) {
	t.Helper()
	m := NewMapper()
	m.Workspace = "/w"
	var outs []Out
	for _, u := range updates {
		outs = append(outs, m.Update(json.RawMessage(u))...)
	}
	switch finish {
	case "end":
		outs = append(outs, m.Finish(false)...)
	case "cancel":
		outs = append(outs, m.Finish(true)...)
	}
	var b strings.Builder
	for _, o := range outs {
		p, err := json.Marshal(o.Payload)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(string(o.Type) + " " + string(p) + "\n")
	}
	return b.String(), m
}

func TestMapper(t *testing.T) {
	cases := []struct {
		name    string
		finish  string // "", "end" or "cancel"
		updates []string
		want    string
	}{
		{
			name:   "thought block closes on the next non-thought update",
			finish: "end",
			updates: []string{
				`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"a"}}`,
				`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"b"}}`,
				`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}`,
			},
			want: `reasoning.delta {"text":"a"}
reasoning.delta {"text":"b"}
reasoning.done {"text":"ab"}
token.delta {"text":"hi"}
`,
		},
		{
			name:    "thought block closes at turn end",
			finish:  "end",
			updates: []string{`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"x"}}`},
			want: `reasoning.delta {"text":"x"}
reasoning.done {"text":"x"}
`,
		},
		{
			name: "tool lifecycle with progress and failure",
			updates: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Run tests","kind":"execute","status":"pending","rawInput":{"command":"go test"},"locations":[{"path":"/w/a.go"}]}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"in_progress","content":[{"type":"content","content":{"type":"text","text":"ok pkg"}}]}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"FAIL pkg\nmore"}}]}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`,
			},
			want: `tool.started {"tool_call_id":"t1","name":"Run tests","title":"Run tests","kind":"execute","input":{"command":"go test"},"locations":["/w/a.go"]}
tool.updated {"tool_call_id":"t1","status":"in_progress","output":"ok pkg"}
tool.done {"tool_call_id":"t1","status":"failed","output":"FAIL pkg\nmore","error":"FAIL pkg"}
`,
		},
		{
			name:    "tool call announced already finished",
			updates: []string{`{"sessionUpdate":"tool_call","toolCallId":"t2","title":"Read","kind":"read","status":"completed","rawOutput":"contents"}`},
			want: `tool.started {"tool_call_id":"t2","name":"Read","title":"Read","kind":"read"}
tool.done {"tool_call_id":"t2","status":"completed","output":"contents"}
`,
		},
		{
			name:    "update for an unannounced tool opens it (Gemini)",
			updates: []string{`{"sessionUpdate":"tool_call_update","toolCallId":"g1","status":"completed","title":"Writing to a.txt","kind":"edit","content":[{"type":"diff","path":"/w/a.txt","oldText":"x","newText":"y"}]}`},
			want: `tool.started {"tool_call_id":"g1","name":"Writing to a.txt","title":"Writing to a.txt","kind":"edit"}
tool.done {"tool_call_id":"g1","status":"completed","output":"Edited /w/a.txt"}
file.changed {"path":"a.txt","action":"modified","diff":"--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n","added":1,"removed":1,"tool_call_id":"g1","source":"agent"}
`,
		},
		{
			name: "a created file's diff, a failed edit's none, a path outside the workspace kept whole",
			updates: []string{
				`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Create b.txt","kind":"edit"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"diff","path":"/w/sub/b.txt","oldText":null,"newText":"one\ntwo\n"},{"type":"diff","path":"/etc/x","newText":"z\n"}]}`,
				`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"Edit c.txt","kind":"edit"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"failed","content":[{"type":"diff","path":"/w/c.txt","oldText":"a","newText":"b"}]}`,
			},
			want: `tool.started {"tool_call_id":"c1","name":"Create b.txt","title":"Create b.txt","kind":"edit"}
tool.done {"tool_call_id":"c1","status":"completed","output":"Created /w/sub/b.txt\nCreated /etc/x"}
file.changed {"path":"sub/b.txt","action":"created","diff":"--- /dev/null\n+++ b/sub/b.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n","added":2,"tool_call_id":"c1","source":"agent"}
file.changed {"path":"/etc/x","action":"created","diff":"--- /dev/null\n+++ b//etc/x\n@@ -0,0 +1 @@\n+z\n","added":1,"tool_call_id":"c1","source":"agent"}
tool.started {"tool_call_id":"c2","name":"Edit c.txt","title":"Edit c.txt","kind":"edit"}
tool.done {"tool_call_id":"c2","status":"failed","output":"Edited /w/c.txt","error":"Edited /w/c.txt"}
`,
		},
		{
			name:    "re-sent tool_call is an update",
			updates: []string{`{"sessionUpdate":"tool_call","toolCallId":"t3","title":"A"}`, `{"sessionUpdate":"tool_call","toolCallId":"t3","title":"B","status":"in_progress"}`},
			want: `tool.started {"tool_call_id":"t3","name":"A","title":"A"}
tool.updated {"tool_call_id":"t3","title":"B","status":"in_progress"}
`,
		},
		{
			name:    "open tools close at turn end",
			finish:  "end",
			updates: []string{`{"sessionUpdate":"tool_call","toolCallId":"t4","kind":"fetch"}`},
			want: `tool.started {"tool_call_id":"t4","name":"fetch","kind":"fetch"}
tool.done {"tool_call_id":"t4","status":"failed","error":"the agent ended the turn without reporting a result"}
`,
		},
		{
			name:    "open tools close as cancelled on cancel",
			finish:  "cancel",
			updates: []string{`{"sessionUpdate":"tool_call","toolCallId":"t5","title":"Slow"}`},
			want: `tool.started {"tool_call_id":"t5","name":"Slow","title":"Slow"}
tool.done {"tool_call_id":"t5","status":"cancelled"}
`,
		},
		{
			name: "plan, commands, mode, title, usage",
			updates: []string{
				`{"sessionUpdate":"plan","entries":[{"content":"Do it","status":"pending","priority":"high"}]}`,
				`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"memory","description":"Manage memory."}]}`,
				`{"sessionUpdate":"current_mode_update","currentModeId":"plan"}`,
				`{"sessionUpdate":"session_info_update","title":"Fix the build"}`,
				`{"sessionUpdate":"usage_update","used":1200,"size":200000,"cost":{"amount":0.12,"currency":"USD"}}`,
			},
			want: `plan.updated {"entries":[{"content":"Do it","status":"pending","priority":"high"}]}
commands.updated {"commands":[{"name":"memory","description":"Manage memory."}]}
mode.updated {"mode":"plan"}
title.updated {"title":"Fix the build"}
usage.updated {"cost_usd":0.12,"cost_source":"agent","context_tokens":1200,"context_window":200000}
`,
		},
		{
			name: "resource links become Markdown links; images are skipped",
			updates: []string{
				`{"sessionUpdate":"agent_message_chunk","content":{"type":"resource_link","name":"spec","uri":"file:///w/spec.md"}}`,
				`{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"AAAA","mimeType":"image/png"}}`,
			},
			want: `token.delta {"text":"[spec](file:///w/spec.md)"}
`,
		},
		{
			name: "echoes and unknowns produce nothing",
			updates: []string{
				`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"me"}}`,
				`{"sessionUpdate":"config_option_update","configOptions":[]}`,
				`{"sessionUpdate":"from_the_future","x":1}`,
				`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":42}}`,
				`"not an object"`,
			},
			want: ``,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := mapAll(t, tc.finish, tc.updates...)
			if got != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestMapperCounts(t *testing.T) {
	_, m := mapAll(t, "",
		`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"me"}}`,
		`{"sessionUpdate":"from_the_future"}`,
		`{"sessionUpdate":"from_the_future"}`,
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":42}}`,
		`[]`,
	)
	if m.Ignored != 1 || m.Malformed != 2 || m.Unknown["from_the_future"] != 2 {
		t.Fatalf("ignored %d malformed %d unknown %v", m.Ignored, m.Malformed, m.Unknown)
	}
}

// FuzzReplay feeds arbitrary agent output through the frame parser, the
// mapper and the permission mapping: nothing may panic. The seeds are every
// recorded transcript line.
func FuzzReplay(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			f.Add([]byte(line))
		}
	}
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call_update","toolCallId":"x","content":[{"type":"content","content":null}]}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		events, _, _ := replay(line)
		for _, e := range events {
			if !e.Type.Known() && e.Type != "(turn usage)" {
				t.Fatalf("unknown event type %q", e.Type)
			}
		}
		// The same bytes as a bare update, as a tool call and as a
		// permission request.
		m := NewMapper()
		m.Update(line)
		m.ToolSeen(line)
		m.Finish(true)
		var p permissionParams
		if json.Unmarshal(line, &p) == nil {
			_, _ = approvalRequested(p, m.Known(toolCallIDOf(p.ToolCall)), "a", "/w")
		}
		_ = commandOf(line)
	})
}
