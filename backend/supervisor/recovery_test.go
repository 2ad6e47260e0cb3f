package supervisor_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// Kill -9 the main process while five runs stream; start again: every run
// is rediscovered, running ones keep streaming, replay from each cursor has
// no gap and no duplicate, cancel still works, finished ones show their
// terminal state.
func TestKill9SupervisorWhileRunsStream(t *testing.T) {
	e := newEnv(t)
	e.sup.Close() // the helper process is main until it is killed
	var specs []string
	for i := 0; i < 4; i++ {
		specs = append(specs, e.newSession().ID+"|/scenario slow")
	}
	specs = append(specs, e.newSession().ID+"|a quick one")
	helper, ids := e.startHelper(specs)
	if len(ids) != 5 {
		t.Fatalf("helper started %d runs", len(ids))
	}
	slow, quick := ids[:4], ids[4]
	for _, id := range slow {
		e.waitFor("streaming", 30*time.Second, func() bool { return countType(e.events(id), run.EventTokenDelta) >= 2 })
	}
	e.waitTerminal(quick)
	kill9(t, helper)

	// Streams go on without main: the shims write the journal themselves.
	atKill := map[string]int64{}
	for _, id := range slow {
		atKill[id] = e.getRun(id).LastSeq
	}
	for _, id := range slow {
		e.waitFor("progress without main", 30*time.Second, func() bool { return e.getRun(id).LastSeq > atKill[id] })
	}

	e.open() // main again: New + Recover
	ctx := context.Background()
	if r := e.getRun(quick); r.Status != run.StatusCompleted || !r.Terminal {
		t.Fatalf("finished run shows %s terminal=%v", r.Status, r.Terminal)
	}
	for i, id := range slow {
		r := e.getRun(id)
		if r.Terminal {
			t.Fatalf("run %s ended (%s) though its shim lives", id, r.Status)
		}
		cursor := rand.Int64N(r.LastSeq + 1)
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		ch, err := e.sup.Watch(wctx, id, cursor)
		if err != nil {
			t.Fatal(err)
		}
		var evs []run.Event
		restartSeq := r.LastSeq
		cancelled := false
		for ev := range ch {
			evs = append(evs, ev)
			// Cancel once a few live events arrived after the restart.
			if !cancelled && ev.Seq >= restartSeq+3 && i%2 == 0 {
				cancelled = true
				if cr, err := e.sup.Cancel(ctx, id); err != nil || !cr.Accepted {
					t.Fatalf("cancel after restart: %+v %v", cr, err)
				}
			}
			if !cancelled && ev.Seq >= restartSeq+3 && i%2 == 1 {
				// The other half is cancelled from outside the watch.
				cancelled = true
				go e.sup.Cancel(ctx, id)
			}
		}
		cancel()
		checkSeqs(t, evs, cursor)
		if d := doneOf(t, evs); d.Status != run.StatusCancelled {
			t.Fatalf("run %s done %+v", id, d)
		}
		if n := countType(e.events(id), run.EventDone); n != 1 {
			t.Fatalf("journal has %d done events for %s", n, id)
		}
	}
	// Replaying a finished run from any cursor still works.
	evs := e.watchAll(e.sup, quick, 2)
	checkSeqs(t, evs, 2)
}

// Kill -9 a shim: its run ends interrupted, once, with a diagnostic, and
// the agent's process group is gone.
func TestKill9Shim(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario slow")
	e.waitFor("streaming", 30*time.Second, func() bool { return countType(e.events(res.RunID), run.EventTokenDelta) >= 2 })
	boot, err := control.ReadBootstrap(e.dataDir, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if boot.AgentPid == 0 {
		t.Fatal("bootstrap lacks the agent pid")
	}
	if err := syscall.Kill(boot.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r := e.waitTerminal(res.RunID)
	if r.Status != run.StatusInterrupted {
		t.Fatalf("run ended %s, want interrupted", r.Status)
	}
	evs := e.watchAll(e.sup, res.RunID, 0)
	checkSeqs(t, evs, 0)
	d := doneOf(t, evs)
	if d.Status != run.StatusInterrupted || !strings.Contains(d.Error, "ended unexpectedly") {
		t.Fatalf("done %+v", d)
	}
	var info run.ErrorInfo
	for _, ev := range evs {
		if ev.Type == run.EventError {
			json.Unmarshal(ev.Payload, &info)
		}
	}
	if !strings.Contains(info.Detail, "shim serving") {
		t.Fatalf("diagnostic lacks the shim's log tail: %+v", info)
	}
	// The agent died with its shim (parent-death signal / fenced group).
	e.waitFor("the agent to be gone", 10*time.Second, func() bool {
		return syscall.Kill(boot.AgentPid, 0) == syscall.ESRCH
	})
	// A second look (a new supervisor's recovery) writes nothing more.
	e.sup.Close()
	e.open()
	if n := countType(e.events(res.RunID), run.EventDone); n != 1 {
		t.Fatalf("%d done events after a second recovery", n)
	}
}

// A run whose shim died while no supervisor was running is interrupted at
// the next start; a queued run whose spec is gone is interrupted too, and a
// queued one with its spec is started.
func TestRecoverDeadAndQueuedRuns(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	dead := e.start(e.session.ID, "/scenario slow")
	e.waitFor("streaming", 30*time.Second, func() bool { return countType(e.events(dead.RunID), run.EventTokenDelta) >= 1 })
	boot, err := control.ReadBootstrap(e.dataDir, dead.RunID)
	if err != nil {
		t.Fatal(err)
	}
	queued := e.start(e.session.ID, "waits for the first")
	e.sup.Close()
	// Submitted while no supervisor ran, and its spec never written.
	lost, err := e.store.Submit(ctx, run.SubmitRequest{SessionID: e.newSession().ID, Message: "lost", ClientRequestID: "lost-1"})
	if err != nil {
		t.Fatal(err)
	}
	syscall.Kill(boot.Pid, syscall.SIGKILL)
	e.waitFor("the shim's lock to free", 10*time.Second, func() bool {
		locked, _ := control.IsLocked(control.RunDir(e.dataDir, dead.RunID) + "/" + control.LockFile)
		return !locked
	})
	e.open()
	if r := e.getRun(dead.RunID); r.Status != run.StatusInterrupted {
		t.Fatalf("dead run is %s after recovery", r.Status)
	}
	if r := e.waitTerminal(queued.RunID); r.Status != run.StatusCompleted {
		t.Fatalf("queued run ended %s (%s)", r.Status, r.Error)
	}
	if r := e.waitTerminal(lost.Run.ID); r.Status != run.StatusInterrupted || !strings.Contains(r.Error, "lost") {
		t.Fatalf("run without a spec: %s %q", r.Status, r.Error)
	}
}
