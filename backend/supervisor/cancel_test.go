package supervisor_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// Cancel at a given moment of a run: exactly one terminal event,
// done{cancelled}, and what was streamed before is kept.
func TestCancel(t *testing.T) {
	tests := []struct {
		name     string
		msg      string
		until    run.EventType // cancel once this event was seen
		wantKept run.EventType // and at least one of these is kept
	}{
		{name: "during a tool call", msg: "/scenario slowtool", until: run.EventToolStarted, wantKept: run.EventToolStarted},
		{name: "during thinking", msg: "/scenario thinking", until: run.EventReasoningDelta, wantKept: run.EventReasoningDelta},
		{name: "while streaming", msg: "/scenario slow", until: run.EventTokenDelta, wantKept: run.EventTokenDelta},
		{name: "agent ignores SIGTERM and cancel", msg: "/scenario hang", until: run.EventTokenDelta, wantKept: run.EventTokenDelta},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			res := e.start(e.session.ID, tc.msg)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			ch, err := e.sup.Watch(ctx, res.RunID, 0)
			if err != nil {
				t.Fatal(err)
			}
			var evs []run.Event
			cancelled := false
			for ev := range ch {
				evs = append(evs, ev)
				if !cancelled && ev.Type == tc.until {
					cancelled = true
					cr, err := e.sup.Cancel(ctx, res.RunID)
					if err != nil || cr.Status != run.ControlAccepted || cr.EventID == "" {
						t.Fatalf("cancel = %+v, %v", cr, err)
					}
					again, err := e.sup.Cancel(ctx, res.RunID)
					if err != nil || again.Status != run.ControlNotActive {
						t.Fatalf("second cancel = %+v, %v; want not-active", again, err)
					}
				}
			}
			if !cancelled {
				t.Fatalf("never saw %s", tc.until)
			}
			checkSeqs(t, evs, 0)
			if d := doneOf(t, evs); d.Status != run.StatusCancelled {
				t.Fatalf("done %+v, want cancelled", d)
			}
			if countType(evs, tc.wantKept) == 0 {
				t.Fatalf("partial output lost: no %s", tc.wantKept)
			}
			// The journal agrees with the stream: same events, one done.
			stored := e.events(res.RunID)
			checkSeqs(t, stored, 0)
			if len(stored) != len(evs) {
				t.Fatalf("journal has %d events, stream had %d", len(stored), len(evs))
			}
			if r := e.getRun(res.RunID); r.Status != run.StatusCancelled {
				t.Fatalf("run row status %s", r.Status)
			}
			if cr, _ := e.sup.Cancel(ctx, res.RunID); cr.Status != run.ControlNotActive {
				t.Fatalf("cancel after the end = %+v", cr)
			}
			if tc.msg == "/scenario hang" {
				// The agent's group is gone: SIGKILL after the grace period.
				if out := e.logTail(res.RunID); !strings.Contains(out, "SIGKILL") {
					t.Fatalf("log does not show the SIGKILL escalation:\n%s", out)
				}
			}
		})
	}
}

// Force stop on an agent that ignores SIGTERM and the protocol cancel:
// with a grace period far longer than the test allows, the run still ends
// at once with exactly one done{cancelled}, whether forced from the start
// or while an ordinary cancel waits out the grace.
func TestForceCancelSkipsTheGrace(t *testing.T) {
	tests := []struct {
		name        string
		cancelFirst bool
	}{
		{"force at once", false},
		{"force while cancelling", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, func(c *supervisor.Config) { c.CancelGrace = time.Hour })
			res := e.start(e.session.ID, "/scenario hang")
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			ch, err := e.sup.Watch(ctx, res.RunID, 0)
			if err != nil {
				t.Fatal(err)
			}
			var evs []run.Event
			asked := false
			for ev := range ch {
				evs = append(evs, ev)
				if tc.cancelFirst && !asked && ev.Type == run.EventTokenDelta {
					asked = true
					if cr, err := e.sup.Cancel(ctx, res.RunID); err != nil || !cr.Accepted {
						t.Fatalf("cancel = %+v, %v", cr, err)
					}
				}
				cancelling := ev.Type == run.EventStatus && strings.Contains(string(ev.Payload), string(run.StatusCancelling))
				if (!tc.cancelFirst && !asked && ev.Type == run.EventTokenDelta) || (tc.cancelFirst && cancelling) {
					asked = true
					if cr, err := e.sup.ForceCancel(ctx, res.RunID); err != nil || !cr.Accepted {
						t.Fatalf("force cancel = %+v, %v", cr, err)
					}
				}
			}
			if ctx.Err() != nil {
				t.Fatal("the run did not end: the grace period was not skipped")
			}
			checkSeqs(t, evs, 0)
			if d := doneOf(t, evs); d.Status != run.StatusCancelled {
				t.Fatalf("done %+v, want cancelled", d)
			}
			if n := countType(evs, run.EventDone); n != 1 {
				t.Fatalf("%d done events", n)
			}
			if out := e.logTail(res.RunID); !strings.Contains(out, "force stop; SIGKILL") {
				t.Fatalf("log does not show the forced kill:\n%s", out)
			}
		})
	}
}

// A run's log is read from its own folder by the stored run's id; an id
// that is not a stored run (a path) is refused.
func TestRunLog(t *testing.T) {
	e := newEnv(t)
	res, _ := e.runDone(e.session.ID, "hello")
	got, err := e.sup.RunLog(context.Background(), res.RunID)
	if err != nil || got == "" || got != e.logTail(res.RunID) {
		t.Fatalf("log = %q, %v; want the run's shim.log", got, err)
	}
	if _, err := e.sup.RunLog(context.Background(), "../../etc"); err == nil {
		t.Fatal("a run id that is a path was read")
	}
}
