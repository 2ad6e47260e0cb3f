package supervisor_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// onLog calls f for every record the supervisor logs about run (its "run"
// attribute), synchronously, from the logging goroutine.
type onLog struct {
	mu  *sync.Mutex
	run *string
	f   func(level slog.Level, msg string)
}

func (h onLog) Enabled(context.Context, slog.Level) bool { return true }
func (h onLog) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h onLog) WithGroup(string) slog.Handler            { return h }
func (h onLog) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "run" && *h.run != "" && a.Value.String() == *h.run {
			h.f(r.Level, r.Message)
			return false
		}
		return true
	})
	return nil
}

// A queued run whose lock looks held for a moment must still start and
// complete. A child forked while the supervisor's process has a run's
// lock file open shares that lock until it execs, so a free lock can look
// held; the scheduler took such a run for one a shim owned, waited for a
// bootstrap that never came and fenced it as interrupted without ever
// starting it (accepted runs silently dropped under a queue). Here the
// test itself holds the lock, like such a child, until the supervisor
// acts on the run.
func TestQueuedRunWithAMomentarilyHeldLockStillRuns(t *testing.T) {
	var mu sync.Mutex
	var watched string
	var held *control.Lock
	release := func(slog.Level, string) {
		held.Unlock() // idempotent
	}
	e := newEnv(t, func(c *supervisor.Config) {
		c.StartTimeout = 2 * time.Second
		c.Log = slog.New(onLog{mu: &mu, run: &watched, f: release})
	})
	first := e.start(e.session.ID, "/scenario slow")
	e.waitStatus(first.RunID, run.StatusRunning)
	second := e.start(e.session.ID, "/scenario models")
	if got := e.getRun(second.RunID).Status; got != run.StatusQueued {
		t.Fatalf("follow-up is %s, want queued", got)
	}
	lock, err := control.TryLock(filepath.Join(control.RunDir(e.dataDir, second.RunID), control.LockFile))
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	watched, held = second.RunID, lock
	mu.Unlock()
	t.Cleanup(func() {
		// Under mu: the log handler may be releasing it at the same time.
		mu.Lock()
		defer mu.Unlock()
		lock.Unlock()
	})
	if _, err := e.sup.Cancel(context.Background(), first.RunID); err != nil {
		t.Fatal(err)
	}
	r := e.waitTerminal(second.RunID)
	if r.Status != run.StatusCompleted {
		t.Fatalf("queued run ended %s (%s), want completed", r.Status, r.Error)
	}
	if evs := e.events(second.RunID); len(evs) == 0 || evs[0].Type != run.EventRunStarted {
		t.Fatalf("queued run's events do not start with run.started: %+v", evs)
	}
}

// stressRuns is how many queued runs TestQueuedRunsAreNeverDropped posts:
// a quick size by default; HD_QUEUE_STRESS_RUNS=1000 is the full size.
func stressRuns(t *testing.T) int {
	if v := os.Getenv("HD_QUEUE_STRESS_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("HD_QUEUE_STRESS_RUNS=%q: want a positive number", v)
		}
		return n
	}
	if testing.Short() {
		return 40
	}
	return 120
}

// Quick runs posted faster than they finish, over 8 sessions from 4
// clients: every accepted run must complete — none dropped, none
// interrupted without starting.
func TestQueuedRunsAreNeverDropped(t *testing.T) {
	const sessions, clients = 8, 4
	total := stressRuns(t)
	e := newEnv(t)
	ses := []run.Session{e.session}
	for len(ses) < sessions {
		ses = append(ses, e.newSession())
	}
	ids := make(chan string, total)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; i < total; i += clients {
				res, err := e.sup.Start(context.Background(), run.StartRequest{
					SessionID: ses[i%sessions].ID, Message: "/scenario models",
					ClientRequestID: fmt.Sprintf("stress-%d", i),
				})
				if err != nil {
					t.Errorf("start %d: %v", i, err)
					return
				}
				ids <- res.RunID
			}
		}()
	}
	wg.Wait()
	close(ids)
	byStatus := map[run.Status][]string{}
	for id := range ids {
		r := e.waitTerminalFor(id, 10*time.Minute)
		byStatus[r.Status] = append(byStatus[r.Status], id+": "+r.Error)
	}
	if n := len(byStatus[run.StatusCompleted]); n != total {
		for st, rs := range byStatus {
			if st != run.StatusCompleted {
				t.Errorf("%d runs ended %s, e.g. %s", len(rs), st, rs[0])
			}
		}
		t.Fatalf("%d of %d queued runs completed", n, total)
	}
}

// A shim that exits without publishing a bootstrap because its run had
// already ended (here: ended while the shim waited for its lock) did not
// fail to start: no "shim start failed" error is logged, and the run keeps
// the end it had.
func TestShimThatFindsItsRunEndedIsNoStartFailure(t *testing.T) {
	var mu sync.Mutex
	var watched string
	var held *control.Lock
	var started bool
	var errs []string
	var settled bool // the supervisor decided what the shim's exit means
	var store interface {
		InterruptRunAfter(ctx context.Context, runID, reason, detail string, announced int64) (bool, error)
	}
	hook := func(level slog.Level, msg string) {
		if level >= slog.LevelError {
			errs = append(errs, msg)
		}
		if msg == "shim start failed" || msg == "shim found its run already ended" {
			settled = true
		}
		if msg == "shim started" && !started {
			started = true
			// The run ends while its shim starts up, then the shim gets
			// the lock and finds nothing to serve.
			if _, err := store.InterruptRunAfter(context.Background(), watched, "ended elsewhere", "", 0); err != nil {
				errs = append(errs, err.Error())
			}
			held.Unlock()
		}
	}
	e := newEnv(t, func(c *supervisor.Config) {
		c.Log = slog.New(onLog{mu: &mu, run: &watched, f: hook})
	})
	store = e.store
	first := e.start(e.session.ID, "/scenario slow")
	e.waitStatus(first.RunID, run.StatusRunning)
	second := e.start(e.session.ID, "/scenario models")
	lock, err := control.TryLock(filepath.Join(control.RunDir(e.dataDir, second.RunID), control.LockFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Unlock() })
	mu.Lock()
	watched, held = second.RunID, lock
	mu.Unlock()
	if _, err := e.sup.Cancel(context.Background(), first.RunID); err != nil {
		t.Fatal(err)
	}
	r := e.waitTerminal(second.RunID)
	e.waitFor("the supervisor to hear that the shim exited", 30*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return settled
	})
	mu.Lock()
	defer mu.Unlock()
	if !started {
		t.Fatal("the queued run's shim was never started")
	}
	if r.Status != run.StatusInterrupted || len(errs) > 0 {
		t.Fatalf("run %s (%s); errors logged: %q", r.Status, r.Error, errs)
	}
}
