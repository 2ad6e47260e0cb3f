package supervisor_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// Watchers attach from random cursors while a run streams, some before and
// some after main goes away and a new supervisor adopts the live shim;
// the ones cut off by the old supervisor's close resume from their last
// seq on the new one. Every watcher sees every seq after its cursor
// exactly once, through `done`. Watch is the one merge of journal
// catch-up and live tail (docs/ARCHITECTURE.md §Life of one event).
func TestWatchersAttachingWhileRunStreamsAcrossAdoption(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario slow")
	id := res.RunID
	e.waitFor("streaming", 30*time.Second, func() bool { return countType(e.events(id), run.EventTokenDelta) >= 2 })

	var mu sync.Mutex // guards e.sup across the adoption
	current := func() *supervisor.Supervisor { mu.Lock(); defer mu.Unlock(); return e.sup }

	type result struct {
		from int64
		evs  []run.Event
		err  string
	}
	results := make(chan result, 32)
	var wg sync.WaitGroup
	attach := func() {
		from := rand.Int64N(e.getRun(id).LastSeq + 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			r := result{from: from}
			cursor := from
			for ctx.Err() == nil {
				ch, err := current().Watch(ctx, id, cursor)
				if err != nil {
					time.Sleep(5 * time.Millisecond) // the old supervisor is closed; the new one comes
					continue
				}
				for ev := range ch {
					r.evs = append(r.evs, ev)
					cursor = ev.Seq
				}
				if n := len(r.evs); n > 0 && r.evs[n-1].Terminal {
					results <- r
					return
				}
			}
			r.err = "timed out"
			results <- r
		}()
	}

	for range 4 {
		attach()
		time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
	}
	// Main goes away; its shim streams on; a new supervisor adopts it.
	mu.Lock()
	e.sup.Close()
	e.open()
	mu.Unlock()
	adopted := e.getRun(id).LastSeq
	for range 4 {
		attach()
		time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
	}
	e.waitFor("streaming after adoption", 30*time.Second, func() bool { return e.getRun(id).LastSeq >= adopted+3 })
	for range 2 {
		attach()
	}
	if cr, err := current().Cancel(context.Background(), id); err != nil || !cr.Accepted {
		t.Fatalf("cancel after adoption: %+v %v", cr, err)
	}
	wg.Wait()
	close(results)
	for r := range results {
		if r.err != "" {
			t.Fatalf("watcher from %d: %s after %d events", r.from, r.err, len(r.evs))
		}
		checkSeqs(t, r.evs, r.from)
		if d := doneOf(t, r.evs); d.Status != run.StatusCancelled {
			t.Fatalf("watcher from %d saw done %+v", r.from, d)
		}
	}
}

// Watchers attach from random cursors while a run floods (the seam between
// journal catch-up and live tail is crossed while events pour in): each
// sees every seq after its cursor exactly once, through `done`.
func TestWatchersAttachingDuringAFlood(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario flood")
	id := res.RunID
	type result struct {
		from int64
		evs  []run.Event
	}
	results := make(chan result, 12)
	for range cap(results) {
		e.waitFor("flooding", 30*time.Second, func() bool { return e.getRun(id).LastSeq > 0 })
		from := rand.Int64N(e.getRun(id).LastSeq + 1)
		comparePages(t, e, id, from)
		comparePages(t, e, id, max(e.getRun(id).LastSeq-100, 0)) // inside the hub's window
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			r := result{from: from}
			ch, err := e.sup.Watch(ctx, id, from)
			if err == nil {
				for ev := range ch {
					r.evs = append(r.evs, ev)
				}
			}
			results <- r
		}()
		time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)
	}
	for range cap(results) {
		r := <-results
		checkSeqs(t, r.evs, r.from)
		if d := doneOf(t, r.evs); d.Status != run.StatusCompleted {
			t.Fatalf("watcher from %d saw done %+v", r.from, d)
		}
	}
}

// comparePages: a page read through the supervisor (its hub's recent
// window, else the journal) is the journal's page, payloads included.
func comparePages(t *testing.T, e *env, id string, after int64) {
	t.Helper()
	ctx := context.Background()
	got, err := e.sup.Events(ctx, id, after, 64)
	if err != nil {
		t.Fatal(err)
	}
	want, err := e.store.Events(ctx, id, after, 64)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > len(want) {
		t.Fatalf("page after %d: %d events, the journal has %d", after, len(got), len(want))
	}
	for i := range got {
		if got[i].Seq != want[i].Seq || got[i].Type != want[i].Type || !bytes.Equal(got[i].Payload, want[i].Payload) {
			t.Fatalf("page after %d, event %d: %+v, the journal has %+v", after, i, got[i], want[i])
		}
	}
}
