package codex

import (
	"flag"
	"testing"

	"github.com/hermesdesk/hermesdesk/testkit/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.events.jsonl from the transcripts")

// TestTranscriptEvents writes each recorded transcript's normalized events
// to testdata/<name>.events.jsonl, which the frontend's fold test replays
// (frontend/src/store/transcripts.test.ts): go test ./backend/adapter/codex -run TestTranscriptEvents -update.
func TestTranscriptEvents(t *testing.T) {
	golden.Transcripts(t, *update, 1, func(t *testing.T, path string) []byte {
		outs, _, _ := replay(t, path)
		events := make([]golden.Event, len(outs))
		for i, o := range outs {
			if !o.Type.Known() {
				t.Errorf("%s is not a known event type", o.Type)
			}
			events[i] = golden.Event{Type: string(o.Type), Payload: o.Payload}
		}
		return golden.JSONL(t, events)
	})
}
