package service

import (
	"context"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/fanout"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// FollowOptions tune event streams. The zero value is sensible.
type FollowOptions struct {
	// Buffer is how many live events may wait between the Runner's stream
	// and a slow writer before the watcher is considered behind (default
	// 1024). The Runner's fan-out never blocks on a watcher.
	Buffer int
	// LagTimeout is how long a watcher may stay behind, catching up from
	// the journal, before its stream is ended with CodeTooSlow (default
	// 30 s). It then resumes from its last seq.
	LagTimeout time.Duration
	// PageSize is how many events one of the service's own journal reads
	// returns (default 1000); a stream's catch-up reads happen in the
	// Runner's Watch.
	PageSize int
}

func (o FollowOptions) withDefaults() FollowOptions {
	if o.Buffer <= 0 {
		o.Buffer = 1024
	}
	if o.LagTimeout <= 0 {
		o.LagTimeout = 30 * time.Second
	}
	if o.PageSize <= 0 {
		o.PageSize = 1000
	}
	return o
}

// errTooSlow ends a stream whose reader stayed behind for LagTimeout.
func errTooSlow() error {
	return &Error{Code: CodeTooSlow, Message: "the reader could not keep up; reconnect to resume from the last event id"}
}

// Emit receives one event of a followed run. more reports that further
// events are already waiting, so a transport may hold its flush.
type Emit func(ev run.Event, more bool) error

// Follow calls emit with every event of runID whose seq > after, in seq
// order, each exactly once, until the run's terminal event has been
// emitted (returns nil), ctx ends, or emit fails (its error is returned).
//
// The one merge of journal catch-up and live tail is the Runner's Watch
// (docs/ARCHITECTURE.md §Life of one event). It subscribes to the live
// fan-out, reads the journal after the cursor, and dedups by seq. Follow
// adds only the slow-reader policy, as a subscriber of the one fan-out
// (backend/fanout) with its lag rule: Watch's stream drains into a
// one-reader fan-out bounded by Buffer, so a slow emit never blocks the
// Runner's; a watcher dropped for falling behind lets go of its
// subscription and subscribes again from its cursor (Watch then catches it up from the journal at its own pace); one
// that stays behind longer than LagTimeout gets a CodeTooSlow error and
// resumes by reconnecting with its last seq. Following never affects the
// run.
func (s *Service) Follow(ctx context.Context, runID string, after int64, emit Emit) error {
	r, err := s.store.GetRun(ctx, runID)
	if err != nil {
		return s.classify(ctx, "get run", "run", err)
	}
	if r.Terminal && after >= r.LastSeq {
		// The reader already has everything, `done` included.
		return nil
	}
	f := follower{s: s, runID: runID, cur: max(after, 0), emit: emit}
	idle := time.Duration(0)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		before := f.cur
		done, lagged, err := f.round(ctx)
		if err != nil || done {
			return err
		}
		if lagged {
			switch {
			case f.behindSince.IsZero():
				f.behindSince = time.Now()
			case time.Since(f.behindSince) > s.follow.LagTimeout:
				return errTooSlow()
			}
			if f.cur != before {
				idle = 0
				continue // subscribe again from the cursor: Watch catches up
			}
			// A stream that broke its order before anything could be
			// emitted: subscribe again, but never in a hot loop.
			idle = min(max(idle*2, 20*time.Millisecond), time.Second)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(idle):
			}
			continue
		}
		if f.cur != before {
			idle = 0
			continue
		}
		// The stream ended without the terminal event, without lag and
		// without news: a run ended without `done` (never expected) or the
		// Runner is going away. Don't spin.
		r, err := s.store.GetRun(ctx, runID)
		if err != nil {
			return s.classify(ctx, "get run", "run", err)
		}
		if r.Terminal && f.cur >= r.LastSeq {
			return nil
		}
		idle = min(max(idle*2, 20*time.Millisecond), time.Second)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(idle):
		}
	}
}

type follower struct {
	s           *Service
	runID       string
	cur         int64
	emit        Emit
	behindSince time.Time // zero while the watcher keeps up with live
}

// round follows one Watch subscription from the cursor until the run ends
// (done), the watcher falls behind (lagged), or the stream closes.
//
// The Runner's stream drains into a one-reader fan-out (backend/fanout)
// bounded by Buffer, so a slow emit never holds up the Runner's fan-out:
// the lag rule is the one fan-out's, a typed drop, after which the
// follower subscribes again from its cursor.
func (f *follower) round(ctx context.Context) (done, lagged bool, err error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	up, err := f.s.runner.Watch(wctx, f.runID, f.cur)
	if err != nil {
		return false, false, f.s.classify(ctx, "watch run", "run", err)
	}
	fan := fanout.New(eventSeq, f.cur, f.s.follow.Buffer)
	sub, _, _ := fan.Subscribe()
	pumped := make(chan struct{})
	go func() {
		defer close(pumped)
		defer fan.Close()
		for ev := range up {
			// A repeat of a seq already passed on is dropped by the
			// fan-out (a seq not newer than its last): the stream's order
			// is checked below.
			fan.Publish(ev)
			if sub.Err() != nil { // fell behind: let go of the subscription
				cancel()
				for range up { // never leave the Runner's fan-out blocked on us
				}
				return
			}
		}
	}()
	// Whatever ends this round, let the pump finish before returning.
	defer func() {
		cancel()
		<-pumped
	}()
	var batch []run.Event
	for {
		evs, end := sub.Next(ctx, batch)
		if ctx.Err() != nil {
			return false, false, nil
		}
		for i, ev := range evs {
			if ev.Seq != f.cur+1 {
				// Watch promises seq order without gaps or repeats; a
				// stream that breaks it is not passed on: subscribe again
				// from the cursor (Watch's merge reads the journal after it).
				f.s.log.Warn("follow: stream out of order; resubscribing", "run", f.runID, "cursor", f.cur, "seq", ev.Seq)
				return false, true, nil
			}
			if err := f.emit(ev, i+1 < len(evs) || sub.Queued() > 0); err != nil {
				return false, false, err
			}
			f.cur = ev.Seq
			if ev.Terminal {
				return true, false, nil
			}
			if !f.behindSince.IsZero() && time.Since(f.behindSince) > f.s.follow.LagTimeout {
				return false, false, errTooSlow()
			}
		}
		batch = evs
		if end != nil {
			return false, fanout.IsDropped(end), nil
		}
		if sub.Queued() == 0 {
			f.behindSince = time.Time{} // at the head again
		}
	}
}

func eventSeq(ev run.Event) int64 { return ev.Seq }
