package supervisor_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

func warmIdle(d time.Duration) envOpt {
	return func(c *supervisor.Config) { c.WarmIdle = d }
}

func (e *env) boot(runID string) control.Bootstrap {
	e.t.Helper()
	b, err := control.ReadBootstrap(e.dataDir, runID)
	if err != nil {
		e.t.Fatal(err)
	}
	if b.Pid <= 0 || b.AgentPid <= 0 {
		e.t.Fatalf("run %s: bootstrap without pids: %+v", runID, b)
	}
	return b
}

// runDone starts msg in the session, follows it to its end and checks its
// events are gapless from seq 1 with exactly one done, completed.
func (e *env) runDone(sessionID, msg string) (run.StartResult, []run.Event) {
	e.t.Helper()
	res := e.start(sessionID, msg)
	evs := e.watchAll(e.sup, res.RunID, 0)
	checkSeqs(e.t.(*testing.T), evs, 0)
	if d := doneOf(e.t.(*testing.T), evs); d.Status != run.StatusCompleted {
		e.t.Fatalf("run %q: %+v", msg, d)
	}
	return res, evs
}

// waitGone waits until the shim and its agent have exited and the warm
// record is gone.
func (e *env) waitGone(b control.Bootstrap) {
	e.t.Helper()
	e.waitFor("the warm shim and its agent to exit", 30*time.Second, func() bool {
		return !runprocs.Alive(b.Pid) && !runprocs.Alive(b.AgentPid)
	})
	if w, err := control.ReadWarm(e.dataDir, e.session.ID); err == nil && w.Pid == b.Pid {
		e.t.Fatalf("the exited shim left its warm record: %+v", w)
	}
}

func remembers(t *testing.T, evs []run.Event, what string) {
	t.Helper()
	if got := text(evs, run.EventTokenDelta); !strings.Contains(got, what) {
		t.Fatalf("the agent does not remember %q: %q", what, got)
	}
}

func TestWarmNextRunReusesShimAndAgent(t *testing.T) {
	e := newEnv(t)
	first, _ := e.runDone(e.session.ID, "my favourite colour is teal")
	b1 := e.boot(first.RunID)
	w, err := control.ReadWarm(e.dataDir, e.session.ID)
	if err != nil || w.Pid != b1.Pid || w.AgentPid != b1.AgentPid || w.LastRunID != first.RunID {
		t.Fatalf("warm record after the run: %+v, %v (bootstrap %+v)", w, err, b1)
	}
	second, evs := e.runDone(e.session.ID, "/scenario recall")
	b2 := e.boot(second.RunID)
	if b2.Pid != b1.Pid || b2.AgentPid != b1.AgentPid {
		t.Fatalf("second run on shim %d agent %d, want the warm %d / %d", b2.Pid, b2.AgentPid, b1.Pid, b1.AgentPid)
	}
	remembers(t, evs, "teal")
	if countType(evs, run.EventNotice) != 0 {
		t.Fatalf("a warm run carries a notice: %+v", lastOf(evs, run.EventNotice))
	}
	// Each run's log has its own lines: the warm shim logs into the run it serves.
	if !strings.Contains(e.logTail(second.RunID), "warm: serving") {
		t.Fatalf("the second run's log:\n%s", e.logTail(second.RunID))
	}
	// A third run asks for approval: prompts work on a warm agent, and a
	// control naming an earlier run does not reach the current one.
	ctx := context.Background()
	third := e.start(e.session.ID, "/scenario approval")
	id := e.waitPending(third.RunID, true)
	if cr, err := e.sup.Cancel(ctx, second.RunID); err != nil || cr.Status != run.ControlNotActive {
		t.Fatalf("cancel of the ended run = %+v, %v", cr, err)
	}
	if cr, err := e.sup.Approve(ctx, third.RunID, id, "allow-once"); err != nil || !cr.Accepted {
		t.Fatalf("approve = %+v, %v", cr, err)
	}
	evs = e.watchAll(e.sup, third.RunID, 0)
	checkSeqs(t, evs, 0)
	if d := doneOf(t, evs); d.Status != run.StatusCompleted {
		t.Fatalf("third run: %+v", d)
	}
	remembers(t, evs, "Permission granted")
	if b3 := e.boot(third.RunID); b3.Pid != b1.Pid {
		t.Fatalf("third run on shim %d, want %d", b3.Pid, b1.Pid)
	}
}

// What the runtime itself writes (a panic, a race report; here SIGQUIT's
// goroutine dump) lands in the log of the run the warm shim serves, the
// log a dead shim's reason is read from.
func TestWarmShimCrashOutputGoesToTheRunItServes(t *testing.T) {
	e := newEnv(t)
	first, _ := e.runDone(e.session.ID, "hello")
	second, _ := e.runDone(e.session.ID, "again")
	b := e.boot(second.RunID)
	if b1 := e.boot(first.RunID); b1.Pid != b.Pid {
		t.Fatalf("second run on shim %d, want the warm %d", b.Pid, b1.Pid)
	}
	if err := syscall.Kill(b.Pid, syscall.SIGQUIT); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the shim to exit", 30*time.Second, func() bool { return !runprocs.Alive(b.Pid) })
	if log := e.logTail(second.RunID); !strings.Contains(log, "SIGQUIT") {
		t.Fatalf("the dump is not in the served run's log:\n%s", log)
	}
	if log := e.logTail(first.RunID); strings.Contains(log, "SIGQUIT") {
		t.Fatalf("the dump went to the first run's log:\n%s", log)
	}
}

func TestWarmIdleTimeoutEndsShimAndAgent(t *testing.T) {
	e := newEnv(t, warmIdle(300*time.Millisecond))
	first, _ := e.runDone(e.session.ID, "my favourite colour is teal")
	b1 := e.boot(first.RunID)
	e.waitGone(b1)
	second, evs := e.runDone(e.session.ID, "/scenario recall")
	if b2 := e.boot(second.RunID); b2.Pid == b1.Pid {
		t.Fatalf("a run after the idle timeout reused shim %d", b1.Pid)
	}
	remembers(t, evs, "teal") // resumed through session/load
}

func TestWarmShimKilledNextRunStartsFresh(t *testing.T) {
	e := newEnv(t)
	first, _ := e.runDone(e.session.ID, "my favourite colour is teal")
	b1 := e.boot(first.RunID)
	if err := syscall.Kill(b1.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The agent goes with it (parent-death signal); its record stays, stale.
	e.waitFor("the killed shim and its agent to exit", 30*time.Second, func() bool {
		return !runprocs.Alive(b1.Pid) && !runprocs.Alive(b1.AgentPid)
	})
	second, evs := e.runDone(e.session.ID, "/scenario recall")
	if b2 := e.boot(second.RunID); b2.Pid == b1.Pid {
		t.Fatal("reused a killed shim")
	}
	remembers(t, evs, "teal")
}

func TestWarmShimOutlivesSupervisorRestart(t *testing.T) {
	e := newEnv(t)
	first, _ := e.runDone(e.session.ID, "my favourite colour is teal")
	b1 := e.boot(first.RunID)
	e.sup.Close()
	e.open()
	second, evs := e.runDone(e.session.ID, "/scenario recall")
	if b2 := e.boot(second.RunID); b2.Pid != b1.Pid || b2.AgentPid != b1.AgentPid {
		t.Fatalf("after a restart the run went to shim %d, want the warm %d", b2.Pid, b1.Pid)
	}
	remembers(t, evs, "teal")
}

func TestWarmShimRetiresWhenSettingsChange(t *testing.T) {
	var flavour atomic.Value
	flavour.Store("1")
	e := newEnv(t, func(c *supervisor.Config) {
		st := c.Store
		c.AgentConfig = func(ctx context.Context, agent string) (adapter.Config, error) {
			cfg, err := agents.Resolve(ctx, agent, st.Setting)
			cfg.Env = append(cfg.Env, "HD_TEST_FLAVOUR="+flavour.Load().(string))
			return cfg, err
		}
	})
	first, _ := e.runDone(e.session.ID, "my favourite colour is teal")
	b1 := e.boot(first.RunID)
	flavour.Store("2")
	second, evs := e.runDone(e.session.ID, "/scenario recall")
	if b2 := e.boot(second.RunID); b2.Pid == b1.Pid {
		t.Fatal("a warm shim started with other settings took the run")
	}
	e.waitFor("the retired shim and its agent to exit", 30*time.Second, func() bool {
		return !runprocs.Alive(b1.Pid) && !runprocs.Alive(b1.AgentPid)
	})
	remembers(t, evs, "teal")
}

func TestWarmNotKeptAfterCancel(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario slow")
	e.waitFor("streaming", 30*time.Second, func() bool { return countType(e.events(res.RunID), run.EventTokenDelta) > 0 })
	b1 := e.boot(res.RunID)
	if cr, err := e.sup.Cancel(context.Background(), res.RunID); err != nil || !cr.Accepted {
		t.Fatalf("cancel = %+v, %v", cr, err)
	}
	if r := e.waitTerminal(res.RunID); r.Status != run.StatusCancelled {
		t.Fatalf("cancelled run ended %s", r.Status)
	}
	e.waitGone(b1)
	if _, err := control.ReadWarm(e.dataDir, e.session.ID); !errors.Is(err, control.ErrNoWarm) {
		t.Fatalf("a cancelled run left a warm record: %v", err)
	}
	second, _ := e.runDone(e.session.ID, "hello again")
	if b2 := e.boot(second.RunID); b2.Pid == b1.Pid {
		t.Fatal("the run after a cancel reused its shim")
	}
}

// A next run racing the idle timeout is never lost: it goes to the warm
// shim or to a fresh one, and ends once, completed.
func TestWarmNextRunRacesIdleTimeout(t *testing.T) {
	// One pass over the eight idle timeouts below; the unit test of the
	// warm state races the timer against a take thousands of times.
	iterations := 8
	if testing.Short() {
		iterations = 4
	}
	var reused, fresh int
	for i := 0; i < iterations; i++ {
		// Idle timeouts around the time a next run takes to reach the shim.
		idle := time.Duration(1+i%8*3) * time.Millisecond
		e := newEnv(t, warmIdle(idle))
		t0 := time.Now()
		first, _ := e.runDone(e.session.ID, "one")
		b1 := e.boot(first.RunID)
		t1 := time.Now()
		second, _ := e.runDone(e.session.ID, "two")
		t.Logf("idle %v: first %v second %v", idle, t1.Sub(t0), time.Since(t1))
		if e.boot(second.RunID).Pid == b1.Pid {
			reused++
		} else {
			fresh++
		}
		e.sup.Close()
		e.killAll()
	}
	t.Logf("%d runs reused a warm shim, %d started a fresh one", reused, fresh)
}

// A warm agent that dies while idle takes its shim with it.
func TestWarmAgentDiesWhileIdle(t *testing.T) {
	e := newEnv(t)
	first, _ := e.runDone(e.session.ID, "my favourite colour is teal")
	b1 := e.boot(first.RunID)
	if err := syscall.Kill(b1.AgentPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	e.waitGone(b1)
	second, evs := e.runDone(e.session.ID, "/scenario recall")
	if b2 := e.boot(second.RunID); b2.Pid == b1.Pid {
		t.Fatal("reused a shim whose agent died")
	}
	remembers(t, evs, "teal")
}

// Saving an agent's settings retires its warm shims at once (the service
// calls RetireWarm), not only when their session's next run comes.
func TestRetireWarmClosesOneAgentsWarmShims(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	other := e.newSession()
	a, _ := e.runDone(e.session.ID, "one")
	b, _ := e.runDone(other.ID, "two")
	if n := e.sup.RetireWarm(ctx, "codex"); n != 0 {
		t.Fatalf("retired %d warm shims of another agent", n)
	}
	if n := e.sup.RetireWarm(ctx, "demo"); n != 2 {
		t.Fatalf("retired %d warm shims, want 2", n)
	}
	e.waitGone(e.boot(a.RunID))
	e.waitGone(e.boot(b.RunID))
}

// Warm shims serve no run: they do not take a slot of MaxConcurrent.
func TestWarmShimsDoNotCountAgainstConcurrency(t *testing.T) {
	e := newEnv(t, func(c *supervisor.Config) { c.MaxConcurrent = 1 })
	a, _ := e.runDone(e.session.ID, "one")
	b, _ := e.runDone(e.newSession().ID, "two") // would stay queued if the warm shim counted
	ba, bb := e.boot(a.RunID), e.boot(b.RunID)
	if ba.Pid == bb.Pid || !runprocs.Alive(ba.Pid) || !runprocs.Alive(bb.Pid) {
		t.Fatalf("want two live warm shims, got %d and %d", ba.Pid, bb.Pid)
	}
}

// A warm shim whose data dir disappears exits with its agent.
func TestWarmShimExitsWhenDataDirGoes(t *testing.T) {
	e := newEnv(t)
	res, _ := e.runDone(e.session.ID, "one")
	b := e.boot(res.RunID)
	e.sup.Close()
	e.store.Close()
	if err := os.RemoveAll(e.dataDir); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the warm shim and its agent to exit", 30*time.Second, func() bool {
		return !runprocs.Alive(b.Pid) && !runprocs.Alive(b.AgentPid)
	})
}
