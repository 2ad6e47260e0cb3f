package supervisor_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/park"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// parkedEvent waits (on the run's watch) for its status parked and
// returns it.
func (e *env) waitParked(id string) run.StatusChanged {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ch, err := e.sup.Watch(ctx, id, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	for ev := range ch {
		var st run.StatusChanged
		if ev.Type == run.EventStatus && json.Unmarshal(ev.Payload, &st) == nil && st.Status == run.StatusParked {
			return st
		}
		if ev.Terminal {
			e.t.Fatalf("run %s ended without parking: %s", id, ev.Payload)
		}
	}
	e.t.Fatalf("run %s did not park (ctx %v)", id, ctx.Err())
	return run.StatusChanged{}
}

// checkResumed: the run parked once, resumed on its own and completed
// the same conversation, its message recorded once.
func checkResumed(t *testing.T, e *env, id string) {
	t.Helper()
	r := e.waitTerminal(id)
	evs := e.events(id)
	if r.Status != run.StatusCompleted || r.ParkAttempts != 1 || r.ResumesAt != "" {
		t.Fatalf("run row %+v (log: %s)", r, e.logTail(id))
	}
	if got := text(evs, run.EventTokenDelta); !strings.Contains(got, "The quota is back") {
		t.Fatalf("text %q lacks the answer after the reset", got)
	}
	if n := countType(evs, run.EventRunStarted); n != 2 {
		t.Errorf("%d run.started, want 2 (the first try and the resumed one)", n)
	}
	if n := countType(evs, run.EventMessageUser); n != 1 {
		t.Errorf("the message is recorded %d times, want once", n)
	}
	if doneOf(t, evs).Status != run.StatusCompleted {
		t.Errorf("done: %+v", doneOf(t, evs))
	}
}

// A run whose agent hits a 429 with a reset (the demo agent's ratelimit
// scenario: the model server's answer as an ACP agent reports it) parks
// and completes by itself after the reset (docs/ARCHITECTURE.md §Usage,
// parked runs).
func TestRateLimitedRunParksAndResumes(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario ratelimit")
	st := e.waitParked(res.RunID)
	if st.Attempt != 1 || st.ResumesAt == "" || !strings.Contains(st.Detail, "Waiting for quota") {
		t.Fatalf("parked: %+v", st)
	}
	if at, err := time.Parse(time.RFC3339, st.ResumesAt); err != nil || time.Until(at) > 5*time.Second {
		t.Fatalf("resumes at %q (%v): not the 2 s reset the agent named", st.ResumesAt, err)
	}
	checkResumed(t, e, res.RunID)
}

// A parked run survives a restart of the core: the new supervisor re-arms
// its reset from the journal and resumes it.
func TestParkedRunSurvivesRestart(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario ratelimit")
	e.waitParked(res.RunID)
	e.sup.Close()
	if r := e.getRun(res.RunID); r.Status != run.StatusParked {
		t.Fatalf("after close: %+v", r)
	}
	e.open()
	checkResumed(t, e, res.RunID)
}

// Giving up on a parked run cancels it at once; it never resumes.
func TestParkedRunCancelled(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario ratelimit")
	e.waitParked(res.RunID)
	cr, err := e.sup.Cancel(context.Background(), res.RunID)
	if err != nil || cr.Status != run.ControlAccepted {
		t.Fatalf("cancel: %+v %v", cr, err)
	}
	if r := e.getRun(res.RunID); r.Status != run.StatusCancelled || !r.Terminal || r.ParkAttempts != 1 {
		t.Fatalf("cancelled parked run: %+v", r)
	}
	if cr, _ := e.sup.Resume(context.Background(), res.RunID); cr.Status != run.ControlNotActive {
		t.Fatalf("resume after cancel: %+v", cr)
	}
}

// With parking off (the setting), a rate-limited run fails as before.
func TestParkingOff(t *testing.T) {
	e := newEnv(t)
	if err := e.store.PutSetting(context.Background(), park.SettingEnabled, json.RawMessage(`false`)); err != nil {
		t.Fatal(err)
	}
	res := e.start(e.session.ID, "/scenario ratelimit")
	evs := e.watchAll(e.sup, res.RunID, 0)
	if d := doneOf(t, evs); d.Status != run.StatusFailed || !strings.Contains(d.Error, "429") {
		t.Fatalf("done: %+v", d)
	}
	if r := e.getRun(res.RunID); r.ParkAttempts != 0 {
		t.Fatalf("parked with parking off: %+v", r)
	}
}
