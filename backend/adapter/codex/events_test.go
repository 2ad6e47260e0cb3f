package codex

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/testkit/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.events.jsonl from the transcripts")

// TestTranscriptEvents writes each recorded transcript's normalized events
// to testdata/<name>.events.jsonl, which the frontend's fold test replays
// (frontend/src/store/transcripts.test.ts): go test ./backend/adapter/codex -run TestTranscriptEvents -update.
func TestTranscriptEvents(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".events.jsonl") {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			outs, _, _ := replay(t, path)
			events := make([]golden.Event, len(outs))
			for i, o := range outs {
				if !o.Type.Known() {
					t.Errorf("%s is not a known event type", o.Type)
				}
				events[i] = golden.Event{Type: string(o.Type), Payload: o.Payload}
			}
			golden.Check(t, strings.TrimSuffix(path, ".jsonl")+".events.jsonl", golden.JSONL(t, events), *update)
		})
	}
	if n == 0 {
		t.Fatal("no transcripts in testdata")
	}
}
