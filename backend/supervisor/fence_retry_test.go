package supervisor_test

import (
	"context"
	"errors"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// flakyInterrupt fails the first fails interruption writes, like a
// journal that is busy or full for a moment.
func flakyInterrupt(s supervisor.Store, fails *atomic.Int32) supervisor.Store {
	m := fakeStore(s)
	m.InterruptRunAfterFunc = func(ctx context.Context, runID, reason, detail string, announced int64) (bool, error) {
		if fails.Add(-1) >= 0 {
			return false, errors.New("database is locked")
		}
		return s.InterruptRunAfter(ctx, runID, reason, detail, announced)
	}
	return m
}

// A dead shim's run is closed even when the first attempt to write its
// interruption fails: the terminal state is never left unwritten while
// the supervisor runs (the run would otherwise hold its session and a
// concurrency slot until the next start).
func TestFencingRetriesAFailedInterruption(t *testing.T) {
	var fails atomic.Int32
	e := newEnv(t, func(c *supervisor.Config) { c.Store = flakyInterrupt(c.Store, &fails) })
	res := e.start(e.session.ID, "/scenario slow")
	e.waitFor("streaming", 30*time.Second, func() bool { return countType(e.events(res.RunID), run.EventTokenDelta) >= 1 })
	boot, err := control.ReadBootstrap(e.dataDir, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	fails.Store(2)
	if err := syscall.Kill(boot.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r := e.waitTerminalFor(res.RunID, 20*time.Second)
	if r.Status != run.StatusInterrupted {
		t.Fatalf("run ended %s, want interrupted", r.Status)
	}
	evs := e.events(res.RunID)
	checkSeqs(t, evs, 0)
	doneOf(t, evs)
}
