package supervisor_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// A run whose lock is held but whose shim has not published a bootstrap
// in time (still starting, stopped, or its bootstrap write failed on a
// full disk) stays followed: when that shim later dies, the run is fenced
// and interrupted instead of staying active forever.
func TestAdoptedShimWithoutBootstrapIsStillFenced(t *testing.T) {
	live := make(chan string, 16)
	e := newEnv(t, func(c *supervisor.Config) {
		c.StartTimeout = 200 * time.Millisecond
		c.OnCheck = func(runID string, isLive bool) {
			if isLive {
				select {
				case live <- runID:
				default:
				}
			}
		}
	})
	e.sup.Close()
	sub, err := e.store.Submit(context.Background(), run.SubmitRequest{SessionID: e.session.ID, Message: "hi", ClientRequestID: "adopt-1"})
	if err != nil {
		t.Fatal(err)
	}
	id := sub.Run.ID
	// The stand-in for a live shim that never wrote its bootstrap.
	lock, err := control.TryLock(filepath.Join(control.RunDir(e.dataDir, id), control.LockFile))
	if err != nil {
		t.Fatal(err)
	}
	e.open()
	// Past the bootstrap wait the supervisor decides by the lock: live.
	select {
	case got := <-live:
		if got != id {
			t.Fatalf("decided about %s, want %s", got, id)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the supervisor never decided about the adopted run whose bootstrap did not come")
	}
	if r := e.getRun(id); r.Terminal {
		t.Fatalf("a run whose lock is held was ended: %s", r.Status)
	}
	lock.Unlock() // the shim dies
	r := e.waitTerminalFor(id, 20*time.Second)
	if r.Status != run.StatusInterrupted {
		t.Fatalf("run ended %s (%s)", r.Status, r.Error)
	}
	evs := e.events(id)
	checkSeqs(t, evs, 0)
	doneOf(t, evs)
}
