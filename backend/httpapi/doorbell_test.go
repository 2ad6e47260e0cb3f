package httpapi_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// Rings are merged per run to the latest seq and delivered at most once
// per window: a burst of 1000 events rings a handful of times, and the
// last ring always carries the last seq.
func TestCoalesceDoorbells(t *testing.T) {
	const window = 40 * time.Millisecond
	src := func(ctx context.Context, ring func(string, int64)) {
		for i := int64(1); i <= 1000; i++ {
			ring("a", i)
			if i <= 5 {
				ring("b", i)
			}
		}
		ring("a", 7) // late, older: never moves a run backwards
		<-ctx.Done()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type ring struct {
		seq int64
		at  time.Time
	}
	var mu sync.Mutex
	got := map[string][]ring{}
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		httpapi.Coalesce(ctx, src, window, func(id string, seq int64) {
			mu.Lock()
			defer mu.Unlock()
			got[id] = append(got[id], ring{seq, time.Now()})
		})
	}()
	waitFor(t, "the last rings", func() bool {
		mu.Lock()
		defer mu.Unlock()
		a, b := got["a"], got["b"]
		return len(a) > 0 && a[len(a)-1].seq == 1000 && len(b) > 0 && b[len(b)-1].seq == 5
	})
	cancel()
	<-done
	elapsed := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	for id, rs := range got {
		maxRings := int(elapsed/window) + 1
		if len(rs) > maxRings {
			t.Errorf("run %s rang %d times in %v; at most %d allowed", id, len(rs), elapsed, maxRings)
		}
		for i := 1; i < len(rs); i++ {
			if rs[i].seq <= rs[i-1].seq {
				t.Errorf("run %s rang seq %d after %d", id, rs[i].seq, rs[i-1].seq)
			}
			if gap := rs[i].at.Sub(rs[i-1].at); gap < window {
				t.Errorf("run %s rang twice within %v", id, gap)
			}
		}
	}
}

func TestDoorbellsStopWithContext(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		e.h.Doorbells(ctx, func(string, int64) {})
		close(done)
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Doorbells did not return after its context ended")
	}
}
