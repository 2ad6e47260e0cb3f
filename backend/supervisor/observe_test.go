package supervisor_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
)

// An observer that stops reading while a run floods falls behind, is
// switched to journal catch-up and still sees every event exactly once;
// other observers are not held up; closing an observer leaves the run be.
func TestSlowObserverCatchesUp(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario flood")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	slow, err := e.sup.Watch(ctx, res.RunID, 0)
	if err != nil {
		t.Fatal(err)
	}
	qctx, qcancel := context.WithCancel(ctx)
	quitter, err := e.sup.Watch(qctx, res.RunID, 0)
	if err != nil {
		t.Fatal(err)
	}
	<-quitter // one event, then this observer goes away
	qcancel()
	fast := e.watchAll(e.sup, res.RunID, 0) // keeps up, reads to the end
	checkSeqs(t, fast, 0)
	// Only now does the slow observer read anything.
	var got []run.Event
	for ev := range slow {
		got = append(got, ev)
	}
	checkSeqs(t, got, 0)
	if len(got) != len(fast) || len(got) < 10000 {
		t.Fatalf("slow observer saw %d events, fast %d", len(got), len(fast))
	}
	if d := doneOf(t, got); d.Status != run.StatusCompleted {
		t.Fatalf("done %+v", d)
	}
}

// A run with the session's native id from an earlier run resumes the
// agent's own session (ACP session/load).
// Without a warm shim (warm agents off), the next run's fresh agent resumes
// the session through session/load.
func TestNextRunResumesNativeSession(t *testing.T) {
	e := newEnv(t, warmIdle(-1))
	ctx := context.Background()
	state := t.TempDir()
	v, _ := json.Marshal(map[string]any{"env": []string{fakeagent.StateEnv + "=" + state}})
	if err := e.store.PutSetting(ctx, "agents.demo", v); err != nil {
		t.Fatal(err)
	}
	first := e.start(e.session.ID, "my favourite colour is teal")
	if r := e.waitTerminal(first.RunID); r.Status != run.StatusCompleted {
		t.Fatalf("first run %s: %s", r.Status, r.Error)
	}
	ses, err := e.store.GetSession(ctx, e.session.ID)
	if err != nil || ses.NativeSessionID == "" {
		t.Fatalf("native session id not stored: %+v %v", ses, err)
	}
	second := e.start(e.session.ID, "/scenario recall")
	evs := e.watchAll(e.sup, second.RunID, 0)
	if d := doneOf(t, evs); d.Status != run.StatusCompleted {
		t.Fatalf("second run: %+v", d)
	}
	started := firstOf[run.RunStarted](t, evs, run.EventRunStarted)
	if started.NativeSessionID != ses.NativeSessionID {
		t.Fatalf("second run started with native id %q, want %q", started.NativeSessionID, ses.NativeSessionID)
	}
	if got := text(evs, run.EventTokenDelta); !strings.Contains(got, "teal") {
		t.Fatalf("the resumed agent does not remember the first turn: %q", got)
	}
}

// A shim whose data dir disappears stops (and takes its agent with it).
func TestShimExitsWhenDataDirGoes(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario slow")
	e.waitFor("streaming", 30*time.Second, func() bool { return countType(e.events(res.RunID), run.EventTokenDelta) > 0 })
	boot, err := control.ReadBootstrap(e.dataDir, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	e.sup.Close()
	if err := os.RemoveAll(filepath.Join(e.dataDir, "runs")); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(e.dataDir)
	e.waitFor("the shim to exit", 20*time.Second, func() bool { return syscall.Kill(boot.Pid, 0) == syscall.ESRCH })
	e.waitFor("the agent to exit", 10*time.Second, func() bool { return syscall.Kill(boot.AgentPid, 0) == syscall.ESRCH })
}
