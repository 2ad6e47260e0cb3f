package hermes

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// testdata/stream-json-documented.jsonl is written from Hermes' documented
// stream-json frames: the release installable here (0.19.0) has no
// --format stream-json, so no recording from the real program exists yet.
func TestMapDocumentedStream(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "stream-json-documented.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var m Mapper
	var events []Out
	var result *Result
	sid := ""
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		mp, err := m.Map(l)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, mp.Events...)
		if mp.SessionID != "" {
			sid = mp.SessionID
		}
		if mp.Result != nil {
			result = mp.Result
		}
	}
	var types []string
	var text strings.Builder
	for _, e := range events {
		types = append(types, string(e.Type))
		if d, ok := e.Payload.(run.TextDelta); ok {
			text.WriteString(d.Text)
		}
	}
	want := "model.updated,token.delta,tool.started,tool.done,tool.started,tool.done,token.delta"
	if strings.Join(types, ",") != want {
		t.Fatalf("types %v", types)
	}
	d1, d2 := events[3].Payload.(run.ToolDone), events[5].Payload.(run.ToolDone)
	s1, s2 := events[2].Payload.(run.ToolStarted), events[4].Payload.(run.ToolStarted)
	if d1.ToolCallID != s1.ToolCallID || d1.Status != "completed" || d1.Output != "hello\n" || s1.Kind != "execute" {
		t.Fatalf("first tool %+v %+v", s1, d1)
	}
	if d2.ToolCallID != s2.ToolCallID || d2.Status != "failed" || d2.Error != "not found" {
		t.Fatalf("second tool %+v %+v", s2, d2)
	}
	if sid != "20261122_000000_abcdef" || result == nil || *result.ExitCode != 0 || result.Usage.OutputTokens != 10 {
		t.Fatalf("session %q result %+v", sid, result)
	}
}

func TestArgs(t *testing.T) {
	got := strings.Join(Args("hi there", "s1", "m", false, true), " ")
	if got != "chat -q hi there --source tool -Q --resume s1 -m m --yolo" {
		t.Fatalf("quiet args %q", got)
	}
	got = strings.Join(Args("x", "", "", true, false), " ")
	if got != "chat -q x --source tool --format stream-json" {
		t.Fatalf("structured args %q", got)
	}
}

func TestHomeConfig(t *testing.T) {
	s := HomeConfig("http://127.0.0.1:5/", "k", "")
	for _, want := range []string{`provider: custom`, `base_url: "http://127.0.0.1:5/v1"`, `api_key: "k"`, "tirith_enabled: false", "allow_lazy_installs: false"} {
		if !strings.Contains(s, want) {
			t.Errorf("config lacks %q:\n%s", want, s)
		}
	}
}

func FuzzMapper(f *testing.F) {
	b, _ := os.ReadFile(filepath.Join("testdata", "stream-json-documented.jsonl"))
	for _, l := range bytes.Split(b, []byte("\n")) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var m Mapper
		mp, err := m.Map(line)
		if err != nil {
			return
		}
		for _, e := range mp.Events {
			if !e.Type.Known() {
				t.Fatalf("unknown type %q", e.Type)
			}
		}
	})
}
