package supervisor_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

func TestConcurrencyLimitQueuesThenStarts(t *testing.T) {
	tests := []struct {
		name       string
		configured int
		setting    string // max_concurrent_runs; "" leaves the configured cap
	}{
		{"configured cap", 2, ""},
		{"setting overrides", 4, "2"},
		{"invalid setting keeps configured", 2, `"many"`},
		{"cleared setting keeps configured", 2, `null`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { testConcurrencyLimit(t, tc.configured, tc.setting) })
	}
}

func testConcurrencyLimit(t *testing.T, configured int, setting string) {
	e := newEnv(t, func(c *supervisor.Config) { c.MaxConcurrent = configured })
	ctx := context.Background()
	if setting != "" {
		if err := e.store.PutSetting(ctx, supervisor.SettingMaxConcurrent, json.RawMessage(setting)); err != nil {
			t.Fatal(err)
		}
	}
	a := e.start(e.session.ID, "/scenario slow")
	b := e.start(e.newSession().ID, "/scenario slow")
	c := e.start(e.newSession().ID, "/scenario slow")
	e.waitStatus(a.RunID, run.StatusRunning)
	e.waitStatus(b.RunID, run.StatusRunning)
	if got := e.getRun(c.RunID).Status; got != run.StatusQueued {
		t.Fatalf("third run is %s with a limit of 2, want queued", got)
	}
	e.waitFor("two shims with agents", 30*time.Second, func() bool {
		shims := e.sup.Shims()
		return len(shims) == 2 && shims[0].AgentPid > 0 && shims[1].AgentPid > 0
	})
	for _, sh := range e.sup.Shims() {
		if sh.RunID == c.RunID || sh.Pid <= 0 {
			t.Fatalf("shims: %+v", e.sup.Shims())
		}
	}
	if cr, err := e.sup.Cancel(ctx, a.RunID); err != nil || !cr.Accepted {
		t.Fatalf("cancel: %+v %v", cr, err)
	}
	e.waitTerminal(a.RunID)
	e.waitStatus(c.RunID, run.StatusRunning)
	for _, id := range []string{b.RunID, c.RunID} {
		e.sup.Cancel(ctx, id)
		if r := e.waitTerminal(id); r.Status != run.StatusCancelled {
			t.Fatalf("run %s ended %s", id, r.Status)
		}
	}
}

func TestSessionRunsOneAtATime(t *testing.T) {
	e := newEnv(t)
	first := e.start(e.session.ID, "/scenario slow")
	second := e.start(e.session.ID, "hello again")
	e.waitStatus(first.RunID, run.StatusRunning)
	if got := e.getRun(second.RunID).Status; got != run.StatusQueued {
		t.Fatalf("follow-up is %s while the session's run is active, want queued", got)
	}
	// A queued run's controls: approvals are not pending; cancel is not
	// tested here (it would end it); the follow-up starts after the first.
	if cr, _ := e.sup.Approve(context.Background(), second.RunID, "x", "allow-once"); cr.Status != run.ControlNotActive {
		t.Fatalf("approve queued run: %+v", cr)
	}
	e.sup.Cancel(context.Background(), first.RunID)
	if r := e.waitTerminal(second.RunID); r.Status != run.StatusCompleted {
		t.Fatalf("follow-up ended %s (%s)", r.Status, r.Error)
	}
}

func TestCancelQueuedRun(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	first := e.start(e.session.ID, "/scenario slow")
	queued := e.start(e.session.ID, "later")
	cr, err := e.sup.Cancel(ctx, queued.RunID)
	if err != nil || cr.Status != run.ControlAccepted || cr.EventID == "" {
		t.Fatalf("cancel queued: %+v, %v", cr, err)
	}
	if r := e.getRun(queued.RunID); r.Status != run.StatusCancelled || !r.Terminal {
		t.Fatalf("queued run after cancel: %s terminal=%v", r.Status, r.Terminal)
	}
	evs := e.events(queued.RunID)
	checkSeqs(t, evs, 0)
	doneOf(t, evs)
	if cr, _ := e.sup.Cancel(ctx, queued.RunID); cr.Status != run.ControlNotActive {
		t.Fatalf("second cancel: %+v", cr)
	}
	e.sup.Cancel(ctx, first.RunID)
	e.waitTerminal(first.RunID)
}

func TestStartIsIdempotent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	req := run.StartRequest{SessionID: e.session.ID, Message: "hello", ClientRequestID: "same-id"}
	a, err := e.sup.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.sup.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if a.RunID != b.RunID || a.UserMessageID != b.UserMessageID {
		t.Fatalf("same client_request_id gave %+v and %+v", a, b)
	}
	req.Message = "something else"
	if _, err := e.sup.Start(ctx, req); !errors.Is(err, supervisor.ErrConflict) {
		t.Fatalf("different body, same id: %v, want ErrConflict", err)
	}
	if r := e.waitTerminal(a.RunID); r.Status != run.StatusCompleted {
		t.Fatalf("run ended %s", r.Status)
	}
	runs, _ := e.store.ListRuns(ctx, journalFilter(e.session.ID))
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
}

func TestOneSupervisorPerDataDir(t *testing.T) {
	e := newEnv(t)
	if _, err := supervisor.New(e.cfg); !errors.Is(err, supervisor.ErrAlreadyRunning) {
		t.Fatalf("second supervisor: %v, want ErrAlreadyRunning", err)
	}
	e.sup.Close()
	s2, err := supervisor.New(e.cfg)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	s2.Close()
}

func TestQueueControlStartsFollowUp(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	first := e.start(e.session.ID, "/scenario slow")
	e.waitStatus(first.RunID, run.StatusRunning)
	cr, err := e.sup.Queue(ctx, first.RunID, "and then this", "q-1")
	if err != nil || !cr.Accepted || cr.RunID == "" || cr.RunID == first.RunID {
		t.Fatalf("queue: %+v, %v", cr, err)
	}
	if got := e.getRun(cr.RunID).Status; got != run.StatusQueued {
		t.Fatalf("follow-up is %s", got)
	}
	e.sup.Cancel(ctx, first.RunID)
	e.waitFor("the follow-up to finish", 30*time.Second, func() bool { return e.getRun(cr.RunID).Terminal })
}
