package supervisor_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Runs that go wrong end with a readable reason and nothing crashes.
func TestFailuresEndWithReadableReason(t *testing.T) {
	tests := []struct {
		name       string
		command    []string // agents.demo setting; nil keeps the default
		msg        string
		wantStatus run.Status
		wantReason string // substring of done.error
		wantText   string // substring of the streamed text
	}{
		{name: "missing agent binary", command: []string{"/nonexistent/agent-binary", "acp"}, msg: "hi",
			wantStatus: run.StatusFailed, wantReason: "not found"},
		{name: "agent exits at once", command: []string{"/bin/false"}, msg: "hi",
			wantStatus: run.StatusFailed, wantReason: "could not be started"},
		{name: "crash mid-turn", msg: "/scenario crash",
			wantStatus: run.StatusFailed, wantReason: "exited unexpectedly", wantText: "halfway there"},
		{name: "garbage on stdout", msg: "/scenario malformed",
			wantStatus: run.StatusCompleted, wantText: "still here"},
		{name: "agent reports an error", msg: "/scenario fail",
			wantStatus: run.StatusFailed, wantReason: "failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			if tc.command != nil {
				v, _ := json.Marshal(map[string]any{"command": tc.command})
				if err := e.store.PutSetting(context.Background(), "agents.demo", v); err != nil {
					t.Fatal(err)
				}
			}
			res := e.start(e.session.ID, tc.msg)
			evs := e.watchAll(e.sup, res.RunID, 0)
			checkSeqs(t, evs, 0)
			d := doneOf(t, evs)
			t.Logf("done: %+v", d)
			if d.Status != tc.wantStatus {
				t.Fatalf("status %s, want %s (error %q)", d.Status, tc.wantStatus, d.Error)
			}
			if !strings.Contains(d.Error, tc.wantReason) {
				t.Fatalf("error %q does not say %q", d.Error, tc.wantReason)
			}
			if tc.wantStatus == run.StatusFailed && countType(evs, run.EventError) == 0 {
				t.Fatal("a failed run has no error event")
			}
			if got := text(evs, run.EventTokenDelta); !strings.Contains(got, tc.wantText) {
				t.Fatalf("text %q lacks %q", got, tc.wantText)
			}
			r := e.getRun(res.RunID)
			if r.Status != tc.wantStatus || !r.Terminal {
				t.Fatalf("run row %s terminal=%v", r.Status, r.Terminal)
			}
		})
	}
}
