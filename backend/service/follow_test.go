package service_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

// watchRunner overrides Watch of the in-memory runner.
type watchRunner struct {
	*servicetest.Mem
	calls   atomic.Int32
	watchFn func(ctx context.Context, runID string, after int64) (<-chan run.Event, error)
}

func (w *watchRunner) Watch(ctx context.Context, runID string, after int64) (<-chan run.Event, error) {
	w.calls.Add(1)
	if w.watchFn != nil {
		return w.watchFn(ctx, runID, after)
	}
	return w.Mem.Watch(ctx, runID, after)
}

func collect(t *testing.T, s *service.Service, runID string, after int64) ([]int64, error) {
	t.Helper()
	var seqs []int64
	err := s.Follow(context.Background(), runID, after, func(ev run.Event, _ bool) error {
		seqs = append(seqs, ev.Seq)
		return nil
	})
	return seqs, err
}

func checkGapless(t *testing.T, seqs []int64, from, to int64) {
	t.Helper()
	if int64(len(seqs)) != to-from+1 {
		t.Fatalf("got %d events, want %d (%d..%d)", len(seqs), to-from+1, from, to)
	}
	for i, s := range seqs {
		if s != from+int64(i) {
			t.Fatalf("event %d has seq %d, want %d", i, s, from+int64(i))
		}
	}
}

func TestFollowFinishedRunReplaysAndEnds(t *testing.T) {
	m := servicetest.NewMem()
	m.AddRun("r1")
	for range 5 {
		m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "x"})
	}
	m.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	s := service.New(m, m, m, service.Options{Log: quiet})
	for _, after := range []int64{0, 2, -7} {
		seqs, err := collect(t, s, "r1", after)
		if err != nil {
			t.Fatal(err)
		}
		checkGapless(t, seqs, max(after, 0)+1, 6)
	}
	if _, err := collect(t, s, "nope", 0); service.CodeOf(err) != service.CodeNotFound {
		t.Fatalf("unknown run: %v", err)
	}
}

// A reader that already holds `done` (a reconnect after the end, or a
// cursor past it) gets an ended stream at once, never a live subscription
// to a run that will say nothing more.
func TestFollowCursorAtOrPastEndOfFinishedRun(t *testing.T) {
	m := servicetest.NewMem()
	m.AddRun("r1")
	m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "x"})
	m.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	w := &watchRunner{Mem: m, watchFn: func(ctx context.Context, _ string, _ int64) (<-chan run.Event, error) {
		return make(chan run.Event), nil // never says anything
	}}
	s := service.New(m, w, m, service.Options{Log: quiet})
	for _, after := range []int64{2, 3, 1000} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		n := 0
		err := s.Follow(ctx, "r1", after, func(run.Event, bool) error { n++; return nil })
		cancel()
		if err != nil || n != 0 {
			t.Fatalf("after=%d: %d events, err %v; want none and nil", after, n, err)
		}
	}
	if c := w.calls.Load(); c != 0 {
		t.Fatalf("Watch called %d times for a reader that has everything", c)
	}
}

func TestFollowLiveWithConcurrentAppends(t *testing.T) {
	m := servicetest.NewMem()
	m.AddRun("r1")
	m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "a"})
	s := service.New(m, m, m, service.Options{Log: quiet})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 500 {
			m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "x"})
		}
		m.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	}()
	seqs, err := collect(t, s, "r1", 0)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	checkGapless(t, seqs, 1, 502)
}

// A reader stalled while events pour in overflows its buffer, is dropped
// from live, catches up from the journal and still gets every event once.
// PageSize 7 makes the catch-up span many pages.
func TestFollowSlowReaderCatchesUpFromJournal(t *testing.T) {
	m := servicetest.NewMem()
	m.WatchBuffer = 4
	m.AddRun("r1")
	wr := &watchRunner{Mem: m}
	s := service.New(m, wr, m, service.Options{Log: quiet, Follow: service.FollowOptions{Buffer: 2, PageSize: 7}})
	gate := make(chan struct{})
	first := make(chan struct{})
	var seqs []int64
	done := make(chan error, 1)
	go func() {
		done <- s.Follow(context.Background(), "r1", 0, func(ev run.Event, _ bool) error {
			if len(seqs) == 0 {
				close(first)
				<-gate
			}
			seqs = append(seqs, ev.Seq)
			return nil
		})
	}()
	m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "first"})
	<-first
	for range 300 {
		m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "x"})
	}
	close(gate)
	m.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	checkGapless(t, seqs, 1, 302)
	// 300 events cannot have waited in 2+4 slots of live buffers while the
	// reader was stalled: the rest came from the journal.
}

func TestFollowTooSlowEndsWithCode(t *testing.T) {
	m := servicetest.NewMem()
	// A roomy upstream: the follower's own one-slot buffer is what
	// overflows (the upstream dropping it instead is a plain close, which
	// the follower rightly treats as "catch up from the journal").
	m.WatchBuffer = 1000
	m.AddRun("r1")
	s := service.New(m, m, m, service.Options{Log: quiet, Follow: service.FollowOptions{Buffer: 1, PageSize: 2, LagTimeout: time.Nanosecond}})
	gate := make(chan struct{})
	first := make(chan struct{})
	var seqs []int64
	done := make(chan error, 1)
	go func() {
		done <- s.Follow(context.Background(), "r1", 0, func(ev run.Event, _ bool) error {
			if len(seqs) == 0 {
				close(first)
				<-gate
			}
			seqs = append(seqs, ev.Seq)
			return nil
		})
	}()
	m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "first"})
	<-first
	for range 50 {
		m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "x"})
	}
	// The follower's pump overflowed and let go of its subscription while
	// the reader was stalled: only then may the reader go on, so the lag is
	// certain rather than a matter of scheduling.
	deadline := time.Now().Add(10 * time.Second)
	for m.Watchers("r1") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the stalled follower never let go of its subscription")
		}
		time.Sleep(time.Millisecond)
	}
	close(gate)
	err := <-done
	if service.CodeOf(err) != service.CodeTooSlow {
		t.Fatalf("err = %v, want too_slow", err)
	}
	checkGapless(t, seqs, 1, int64(len(seqs)))
	if len(seqs) >= 51 {
		t.Fatalf("a too-slow reader got everything (%d); it should have been cut", len(seqs))
	}
}

// A Runner stream that skips or repeats a seq is never passed on: the
// follower subscribes again from its cursor, and Watch's one merge of
// journal and live tail fills the rest.
func TestFollowResubscribesAfterABrokenStream(t *testing.T) {
	m := servicetest.NewMem()
	m.AddRun("r1")
	for range 9 {
		m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "x"})
	}
	m.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	all, _ := m.Events(context.Background(), "r1", 0, 100)
	wr := &watchRunner{Mem: m}
	var broken atomic.Bool
	wr.watchFn = func(ctx context.Context, runID string, after int64) (<-chan run.Event, error) {
		if broken.Swap(true) {
			return m.Watch(ctx, runID, after)
		}
		ch := make(chan run.Event, len(all)+1)
		for _, ev := range all {
			if ev.Seq > after && ev.Seq != 4 && ev.Seq != 5 {
				ch <- ev
			}
			if ev.Seq == 3 {
				ch <- ev // a duplicate too
			}
		}
		close(ch)
		return ch, nil
	}
	s := service.New(m, wr, m, service.Options{Log: quiet})
	seqs, err := collect(t, s, "r1", 0)
	if err != nil {
		t.Fatal(err)
	}
	checkGapless(t, seqs, 1, 10)
	if n := wr.calls.Load(); n != 2 {
		t.Fatalf("Watch called %d times, want 2 (the broken stream, then the resubscription)", n)
	}
}

func TestFollowStopsWhenContextEnds(t *testing.T) {
	m := servicetest.NewMem()
	m.AddRun("r1")
	s := service.New(m, m, m, service.Options{Log: quiet})
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Follow(ctx, "r1", 0, func(run.Event, bool) error { close(got); return nil })
	}()
	m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "x"})
	<-got
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("err = %v", err)
	}
	r, _ := m.GetRun(context.Background(), "r1")
	if r.Terminal {
		t.Fatal("a watcher going away ended the run")
	}
	for m.Watchers("r1") != 0 {
		time.Sleep(time.Millisecond)
	}
}

// Rings reports every live event of every run, each with its run and
// seq, straight from the runner's tap (no polling, no per-run follower).
func TestRingsFollowActiveRuns(t *testing.T) {
	m := servicetest.NewMem()
	s := service.New(m, m, m, service.Options{Log: quiet})
	m.AddRun("old")
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	got := map[string]int64{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Rings(ctx, func(id string, seq int64) {
			mu.Lock()
			got[id] = max(got[id], seq)
			mu.Unlock()
		})
	}()
	seen := func(id string, seq int64) bool {
		mu.Lock()
		defer mu.Unlock()
		return got[id] >= seq && got[id] > 0
	}
	// Rings registers in the background: append until one rings.
	for i := int64(1); !seen("old", 1); i++ {
		m.Append("old", run.EventTokenDelta, run.TextDelta{Text: "x"})
		time.Sleep(time.Millisecond)
	}
	p, _ := s.CreateProject(ctx, service.CreateProjectRequest{Workspace: t.TempDir()})
	ses, _ := s.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"})
	res, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	m.Append(res.RunID, run.EventDone, run.Done{Status: run.StatusCompleted})
	waitSeen(t, func() bool { return seen(res.RunID, 3) })
	cancel()
	<-done
}

func waitSeen(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for a ring")
		}
		time.Sleep(time.Millisecond)
	}
}

// A Runner whose stream keeps breaking its order (never expected) cannot
// hold a reader in a loop: it stays behind and is cut with CodeTooSlow,
// resuming from the last event it got.
func TestFollowBrokenStreamEndsTooSlow(t *testing.T) {
	m := servicetest.NewMem()
	m.AddRun("r1")
	for range 5 {
		m.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "x"})
	}
	wr := &watchRunner{Mem: m}
	wr.watchFn = func(ctx context.Context, runID string, after int64) (<-chan run.Event, error) {
		evs, _ := m.Events(ctx, runID, after, 100)
		ch := make(chan run.Event, len(evs))
		for _, ev := range evs {
			if ev.Seq != 2 {
				ch <- ev
			}
		}
		close(ch)
		return ch, nil
	}
	s := service.New(m, wr, m, service.Options{Log: quiet, Follow: service.FollowOptions{LagTimeout: time.Millisecond}})
	seqs, err := collect(t, s, "r1", 0)
	if service.CodeOf(err) != service.CodeTooSlow {
		t.Fatalf("err = %v, want too_slow", err)
	}
	checkGapless(t, seqs, 1, 1)
}
