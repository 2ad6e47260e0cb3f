package traystate

import (
	"context"
	"log/slog"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Source is the one method of the watch bus a follower needs
// (service.Service.Watch has it; tests use a fake).
type Source interface {
	Watch(ctx context.Context) (<-chan run.WatchMessage, error)
}

// Reconnect delays: a goodbye (the watcher fell behind) reconnects at
// once; a failing Watch backs off up to maxBackoff.
const (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 5 * time.Second
)

// Follow reads src until ctx ends, calling fn with every message. When the
// stream ends (a goodbye, or the bus closed it) it watches again, and the
// fresh snapshot replaces whatever fn had folded: nothing is lost or
// double-counted across a reconnect (docs/ARCHITECTURE.md §The watch bus).
func Follow(ctx context.Context, src Source, log *slog.Logger, fn func(run.WatchMessage)) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	backoff := minBackoff
	for ctx.Err() == nil {
		ch, err := src.Watch(ctx)
		if err != nil {
			log.Warn("watch bus unavailable; retrying", "err", err, "after", backoff)
			if !sleep(ctx, backoff) {
				return
			}
			backoff = min(2*backoff, maxBackoff)
			continue
		}
		backoff = minBackoff
		for m := range ch {
			if m.Type == run.WatchGoodbye {
				log.Info("watch bus said goodbye; watching again", "reason", m.Reason)
			}
			fn(m)
		}
		if ctx.Err() == nil && !sleep(ctx, minBackoff) {
			return
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
