package codex

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func replay(t testing.TB, path string) (events []Out, reqs []*ServerRequest, ends []TurnEnd) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMapper("/work")
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if bytes.Contains(sc.Bytes(), []byte(`"_direction"`)) {
			continue
		}
		mp, err := m.Map(sc.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		events = append(events, mp.Events...)
		if mp.Request != nil {
			reqs = append(reqs, mp.Request)
		}
		if mp.TurnEnd != nil {
			ends = append(ends, *mp.TurnEnd)
		}
	}
	return events, reqs, ends
}

func summarize(events []Out) (text string, tools []string) {
	var b strings.Builder
	for _, e := range events {
		switch p := e.Payload.(type) {
		case run.TextDelta:
			if e.Type == run.EventTokenDelta {
				b.WriteString(p.Text)
			}
		case run.ToolDone:
			tools = append(tools, p.Status)
		}
	}
	return b.String(), tools
}

func TestMapTranscripts(t *testing.T) {
	tests := []struct {
		file      string
		text      string
		tools     []string
		approvals int
		ends      []string
	}{
		{"real-reasoning.jsonl", "Here is a short, considered answer.", nil, 0, []string{"completed"}},
		{"real-tool-accept.jsonl", "I'll run the command.All done: hello.txt written. Tool said: Chunk ID", []string{"completed"}, 1, []string{"completed"}},
		{"real-tool-decline.jsonl", "I'll run the command.All done: hello.txt written.", []string{"denied"}, 1, []string{"completed"}},
		{"real-cancel.jsonl", "tick ", nil, 0, []string{"interrupted"}},
		{"real-resume.jsonl", "", nil, 0, []string{"completed", "completed", "completed"}},
		{"codex-appserver-accept.jsonl", "All done: hello.txt written.", []string{"completed"}, 1, []string{"completed"}},
		{"codex-appserver-decline.jsonl", "All done: hello.txt written.", []string{"denied"}, 1, []string{"completed"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			events, reqs, ends := replay(t, filepath.Join("testdata", tt.file))
			text, tools := summarize(events)
			if !strings.HasPrefix(text, tt.text) {
				t.Errorf("text %q, want prefix %q", text, tt.text)
			}
			if strings.Join(tools, ",") != strings.Join(tt.tools, ",") {
				t.Errorf("tools %v, want %v", tools, tt.tools)
			}
			n := 0
			for _, r := range reqs {
				if r.Approval != nil {
					n++
					if !hasOption(r.Approval.Options, DecisionAccept) || !hasOption(r.Approval.Options, DecisionDecline) {
						t.Errorf("options %+v", r.Approval.Options)
					}
				}
			}
			if n != tt.approvals {
				t.Errorf("approvals %d, want %d", n, tt.approvals)
			}
			var st []string
			for _, e := range ends {
				st = append(st, e.Status)
			}
			if strings.Join(st, ",") != strings.Join(tt.ends, ",") {
				t.Errorf("turn ends %v, want %v", st, tt.ends)
			}
		})
	}
}

func TestMapLines(t *testing.T) {
	m := NewMapper("/work")
	mp, err := m.Map([]byte(`{"method":"item/completed","params":{"item":{"type":"fileChange","id":"f","status":"completed","changes":[{"path":"/work/a.go","kind":{"type":"add"},"diff":"+x"}]}}}`))
	if err != nil || len(mp.Events) != 2 {
		t.Fatalf("%+v %v", mp, err)
	}
	if fc := mp.Events[1].Payload.(run.FileChanged); fc.Path != "a.go" || fc.Action != "created" {
		t.Fatalf("file.changed %+v", fc)
	}
	mp, _ = m.Map([]byte(`{"method":"item/completed","params":{"item":{"type":"commandExecution","id":"c","status":"completed","exitCode":2,"aggregatedOutput":"no"}}}`))
	if d := mp.Events[0].Payload.(run.ToolDone); d.Status != "failed" || *d.ExitCode != 2 {
		t.Fatalf("non-zero exit: %+v", d)
	}
	mp, _ = m.Map([]byte(`{"id":7,"result":{"ok":true}}`))
	if mp.Response == nil || mp.Response.ID != 7 {
		t.Fatalf("response %+v", mp)
	}
	mp, _ = m.Map([]byte(`{"id":"x","method":"item/tool/requestUserInput","params":{}}`))
	if mp.Request == nil || mp.Request.Approval != nil {
		t.Fatalf("unsupported request %+v", mp.Request)
	}
	if _, err := m.Map([]byte(`{`)); err == nil {
		t.Fatal("want an error")
	}
}

func TestConfigTOML(t *testing.T) {
	s := ConfigTOML("http://127.0.0.1:9/", "")
	for _, want := range []string{`base_url = "http://127.0.0.1:9/v1"`, `wire_api = "responses"`, `model = "gpt-5.5"`, "request_max_retries = 0"} {
		if !strings.Contains(s, want) {
			t.Errorf("config lacks %q", want)
		}
	}
	if !strings.Contains(ConfigTOML("http://h/v1", "m"), `base_url = "http://h/v1"`) {
		t.Error("a /v1 base URL got a second /v1")
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
		mp, err := NewMapper("/work").Map(line)
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
