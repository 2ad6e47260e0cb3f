// Package watchbus is the clients' side of the watch bus
// (docs/ARCHITECTURE.md §The watch bus): the one loop every Go client uses
// to follow it and reconnect — the core's and serve's apihost, the tray,
// the notifier and the window process.
package watchbus

import (
	"context"
	"log/slog"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Source is the one method of the bus a follower needs: service.Service,
// an httpapi.Handler (its own service or the supervisor it proxies to) and
// a Client's stream (SourceFunc) have it.
type Source interface {
	Watch(ctx context.Context) (<-chan run.WatchMessage, error)
}

// SourceFunc adapts a function to Source.
type SourceFunc func(ctx context.Context) (<-chan run.WatchMessage, error)

// Watch calls f.
func (f SourceFunc) Watch(ctx context.Context) (<-chan run.WatchMessage, error) { return f(ctx) }

// Reconnect delays: after a stream ended (a goodbye) the follower watches
// again after MinBackoff; a Watch that fails backs off, doubling, up to
// MaxBackoff. Waking is by timer only between attempts: nothing polls.
const (
	MinBackoff = 100 * time.Millisecond
	MaxBackoff = 5 * time.Second
)

// Options tune Follow; the zero value is sensible.
type Options struct {
	Log *slog.Logger
	// Ended, if set, is called each time a stream ended (err nil) or
	// Watch failed (err), before the pause: apihost tries to take over
	// the data dir here, so a broken proxied bus wakes the take-over at
	// once (docs/ARCHITECTURE.md §Processes).
	Ended func(err error)
}

// Follow reads src until ctx ends, calling fn with every message. When the
// stream ends (a goodbye, or the bus closed it) it watches again, and the
// fresh snapshot replaces whatever fn had folded: nothing is lost or
// double-counted across a reconnect. fn sees the goodbye itself.
func Follow(ctx context.Context, src Source, fn func(run.WatchMessage), o Options) {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	backoff := MinBackoff
	for ctx.Err() == nil {
		ch, err := src.Watch(ctx)
		if err == nil {
			backoff = MinBackoff
			for m := range ch {
				if m.Type == run.WatchGoodbye {
					log.Info("watch bus said goodbye; watching again", "reason", m.Reason)
				}
				fn(m)
			}
		} else if ctx.Err() == nil {
			log.Warn("watch bus unavailable; retrying", "err", err, "after", backoff)
		}
		if o.Ended != nil && ctx.Err() == nil {
			o.Ended(err)
		}
		if !sleep(ctx, backoff) {
			return
		}
		if err != nil {
			backoff = min(2*backoff, MaxBackoff)
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
