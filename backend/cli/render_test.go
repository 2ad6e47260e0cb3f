package cli

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestRendererTranscript(t *testing.T) {
	ev := func(seq int64, typ run.EventType, p any) run.Event {
		b, _ := json.Marshal(p)
		return run.Event{RunID: "run_1", Seq: seq, Type: typ, Payload: b, Terminal: typ == run.EventDone}
	}
	tests := []struct {
		name             string
		events           []run.Event
		wantOut, wantErr string
	}{
		{"text then notice", []run.Event{
			ev(1, run.EventNotice, run.Notice{Message: "starts afresh"}),
			ev(2, run.EventTokenDelta, run.TextDelta{Text: "hel"}),
			ev(3, run.EventTokenDelta, run.TextDelta{Text: "lo"}),
			ev(4, run.EventDone, run.Done{Status: run.StatusCompleted}),
		}, "note: starts afresh\nhello\n", ""},
		{"error goes to stderr", []run.Event{
			ev(1, run.EventTokenDelta, run.TextDelta{Text: "partial"}),
			ev(2, run.EventError, run.ErrorInfo{Message: "agent crashed"}),
			ev(3, run.EventDone, run.Done{Status: run.StatusFailed}),
		}, "partial\n", "error: agent crashed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			r := &renderer{out: &out, err: &errOut, runID: "run_1"}
			for _, e := range tt.events {
				if err := r.event(e); err != nil {
					t.Fatal(err)
				}
			}
			if out.String() != tt.wantOut || errOut.String() != tt.wantErr {
				t.Fatalf("out %q err %q, want %q %q", out.String(), errOut.String(), tt.wantOut, tt.wantErr)
			}
		})
	}
}
