package claude

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// replay maps a recorded transcript's agent lines (lines we sent are tagged
// _direction and skipped), denying the tool calls we denied in the recording.
func replay(t testing.TB, path string) (events []Out, controls []*ControlRequest, results []*Result) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMapper("/work")
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	var lastControl *ControlRequest
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.Contains(line, []byte(`"_direction"`)) {
			if lastControl != nil && (bytes.Contains(line, []byte(`"behavior":"deny"`)) || bytes.Contains(line, []byte(`"behavior": "deny"`))) {
				m.Denied(lastControl.ToolUseID)
			}
			continue
		}
		mp, err := m.Map(line)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		events = append(events, mp.Events...)
		if mp.Control != nil {
			controls = append(controls, mp.Control)
			lastControl = mp.Control
		}
		if mp.Result != nil {
			results = append(results, mp.Result)
		}
	}
	return events, controls, results
}

func text(events []Out) string {
	var b strings.Builder
	for _, e := range events {
		if e.Type == run.EventTokenDelta {
			b.WriteString(e.Payload.(run.TextDelta).Text)
		}
	}
	return b.String()
}

func toolDone(events []Out) []run.ToolDone {
	var out []run.ToolDone
	for _, e := range events {
		if d, ok := e.Payload.(run.ToolDone); ok {
			out = append(out, d)
		}
	}
	return out
}

func TestMapTranscripts(t *testing.T) {
	tests := []struct {
		file       string
		text       string
		toolStatus []string
		approvals  int
		results    []string // result subtypes
	}{
		{"real-reasoning.jsonl", "Here is a short, considered answer.", nil, 0, []string{"success"}},
		{"real-tool-allow.jsonl", "I'll run the command.All done: hello.txt written. Tool said: hello", []string{"completed"}, 1, []string{"success"}},
		{"real-tool-deny.jsonl", "I'll run the command.All done: hello.txt written. Tool said: The user denied this action.", []string{"denied"}, 1, []string{"success"}},
		{"real-cancel.jsonl", "tick ", nil, 0, []string{"error_during_execution"}},
		{"claude-control-stdio-allow.jsonl", "I'll run the command.All done: hello.txt written.", []string{"completed"}, 1, []string{"success"}},
		{"claude-control-stdio-deny.jsonl", "", []string{"denied"}, 1, []string{"success"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			events, controls, results := replay(t, filepath.Join("testdata", tt.file))
			if tt.text != "" && text(events) != tt.text {
				t.Errorf("text = %q, want %q", text(events), tt.text)
			}
			var statuses []string
			for _, d := range toolDone(events) {
				statuses = append(statuses, d.Status)
			}
			if strings.Join(statuses, ",") != strings.Join(tt.toolStatus, ",") {
				t.Errorf("tool statuses %v, want %v", statuses, tt.toolStatus)
			}
			n := 0
			for _, c := range controls {
				if c.Approval != nil {
					n++
					if c.Approval.ToolCallID == "" || len(c.Approval.Options) != 2 {
						t.Errorf("approval %+v", c.Approval)
					}
				}
			}
			if n != tt.approvals {
				t.Errorf("approvals %d, want %d", n, tt.approvals)
			}
			var subs []string
			for _, r := range results {
				subs = append(subs, r.Subtype)
			}
			if strings.Join(subs, ",") != strings.Join(tt.results, ",") {
				t.Errorf("results %v, want %v", subs, tt.results)
			}
		})
	}
}

// Every transcript with partial messages must yield each text once: deltas
// and the assistant message's copy must not both be mapped.
func TestMapNoDuplicateText(t *testing.T) {
	events, _, results := replay(t, filepath.Join("testdata", "real-resume.jsonl"))
	want := ""
	for _, r := range results {
		want += r.Text
	}
	if got := text(events); got != want {
		t.Fatalf("text %q, results say %q", got, want)
	}
}

func TestMapFrames(t *testing.T) {
	tests := []struct {
		name string
		line string
		want run.EventType
	}{
		{"init model", `{"type":"system","subtype":"init","model":"m","session_id":"s"}`, run.EventModelUpdated},
		{"unstreamed text", `{"type":"assistant","message":{"id":"x","content":[{"type":"text","text":"hi"}]}}`, run.EventTokenDelta},
		{"write tool", `{"type":"assistant","message":{"id":"x","content":[{"type":"tool_use","id":"t","name":"Write","input":{"file_path":"/work/a.txt"}}]}}`, run.EventToolStarted},
		{"failed tool", `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":[{"type":"text","text":"boom"}]}]}}`, run.EventToolDone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewMapper("/work").Map([]byte(tt.line))
			if err != nil || len(m.Events) == 0 || m.Events[0].Type != tt.want {
				t.Fatalf("%+v %v", m, err)
			}
		})
	}
	// A successful Write reports the file relative to the workspace.
	m := NewMapper("/work")
	_, _ = m.Map([]byte(`{"type":"assistant","message":{"id":"x","content":[{"type":"tool_use","id":"t","name":"Write","input":{"file_path":"/work/a.txt"}}]}}`))
	mp, _ := m.Map([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}`))
	if len(mp.Events) != 2 || mp.Events[1].Payload.(run.FileChanged).Path != "a.txt" {
		t.Fatalf("file.changed: %+v", mp.Events)
	}
	if _, err := NewMapper("").Map([]byte("not json")); err == nil {
		t.Fatal("want an error for a malformed line")
	}
}

func FuzzMapper(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		for _, l := range bytes.Split(b, []byte("\n")) {
			if len(l) < 4096 {
				f.Add(l)
			}
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m := NewMapper("/work")
		mp, err := m.Map(line)
		if err != nil {
			return
		}
		for _, e := range mp.Events {
			if !e.Type.Known() {
				t.Fatalf("unknown event type %q", e.Type)
			}
		}
	})
}
