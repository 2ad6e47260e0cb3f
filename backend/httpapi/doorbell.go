package httpapi

import (
	"context"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/watchbus"
)

// RingSource reports every committed event of every run, as (run, seq), to
// ring until ctx ends. ring must be cheap and never block.
type RingSource func(ctx context.Context, ring func(runID string, seq int64))

// DoorbellWindow is the coalescing window: one animation frame.
const DoorbellWindow = 16 * time.Millisecond

// Doorbells calls onRing with (run, latest seq) at most once per run per
// DoorbellWindow until ctx ends; the frontend then pulls pages through Do.
// Large event payloads never cross the webview bridge (they leak in
// WebKit). onRing runs on one goroutine, in no particular run order.
//
// Doorbells are coalesced once, by the bus's owner, per watcher: a proxy
// passes on the doorbells of the owner's /api/watch?doorbells=1 as they
// come (docs/ARCHITECTURE.md §Life of one event).
func (h *Handler) Doorbells(ctx context.Context, onRing func(runID string, seq int64)) {
	if h.remote != nil {
		watchbus.Follow(ctx, watchbus.SourceFunc(h.WatchWithDoorbells), func(m run.WatchMessage) {
			if m.Type == run.WatchDoorbell && m.Run != nil {
				onRing(m.Run.RunID, m.Run.LastSeq)
			}
		}, watchbus.Options{Log: h.log})
		return
	}
	if h.cfg.Rings == nil {
		<-ctx.Done()
		return
	}
	Coalesce(ctx, h.cfg.Rings, DoorbellWindow, onRing)
}

// Coalesce runs src and delivers its rings to onRing, merged per run to the
// highest seq, with at least window between two deliveries. The first ring
// after a quiet spell is delivered at once.
func Coalesce(ctx context.Context, src RingSource, window time.Duration, onRing func(runID string, seq int64)) {
	var (
		mu      sync.Mutex
		pending = map[string]int64{}
		wake    = make(chan struct{}, 1)
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go src(ctx, func(runID string, seq int64) {
		mu.Lock()
		if seq > pending[runID] {
			pending[runID] = seq
		}
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-wake:
		}
		mu.Lock()
		batch := pending
		pending = map[string]int64{}
		mu.Unlock()
		for id, seq := range batch {
			onRing(id, seq)
		}
		t.Reset(window)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
