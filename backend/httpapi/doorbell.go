package httpapi

import (
	"context"
	"sync"
	"time"
)

// RingSource reports every committed event of every run, as (run, seq), to
// ring until ctx ends. ring must be cheap and never block.
type RingSource func(ctx context.Context, ring func(runID string, seq int64))

// DoorbellWindow is the coalescing window: one animation frame.
const DoorbellWindow = 16 * time.Millisecond

// Doorbells calls onRing with (run, latest seq) at most once per run per
// DoorbellWindow until ctx ends, for the desktop app to emit as tiny
// `run:doorbell` events; the frontend then pulls pages through Do. Large
// event payloads never cross the webview bridge (they leak in WebKit).
// onRing runs on one goroutine, in no particular run order.
func (h *Handler) Doorbells(ctx context.Context, onRing func(runID string, seq int64)) {
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
