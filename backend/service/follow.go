package service

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// FollowOptions tune event streams. The zero value is sensible.
type FollowOptions struct {
	// Buffer is how many live events may wait between the supervisor's
	// fan-out and a slow writer before the watcher is considered behind
	// (default 1024). The fan-out never blocks on a watcher.
	Buffer int
	// LagTimeout is how long a watcher may stay behind the live stream,
	// catching up from the journal, before its stream is ended with
	// CodeTooSlow (default 30 s). It then resumes from its last seq.
	LagTimeout time.Duration
	// PageSize is the journal catch-up page (default 1000).
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
// Live events come from the Runner's snapshot-then-stream Watch through a
// bounded buffer, so a slow emit never blocks the fan-out. A watcher whose
// buffer overflows, or that sees a gap, drops its live subscription,
// catches up from the journal at its own pace and then subscribes again
// from its cursor; one that stays behind longer than LagTimeout gets a
// CodeTooSlow error and resumes by reconnecting with its last seq.
// Following never affects the run.
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
		done, lagged, err := f.live(ctx)
		if err != nil || done {
			return err
		}
		if lagged && f.behindSince.IsZero() {
			f.behindSince = time.Now()
		}
		before := f.cur
		if done, err := f.catchUp(ctx); err != nil || done {
			return err
		}
		if lagged || f.cur != before || f.progressed {
			idle = 0
			continue
		}
		// The live stream ended without the terminal event, without lag
		// and the journal has nothing new: a run ended without `done`
		// (never expected) or the supervisor is going away. Don't spin.
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
	progressed  bool      // the last live round emitted something
}

// live follows one Watch subscription until the run ends (done), the
// watcher falls behind or sees a gap (lagged), or the stream closes.
func (f *follower) live(ctx context.Context) (done, lagged bool, err error) {
	f.progressed = false
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	up, err := f.s.runner.Watch(wctx, f.runID, f.cur)
	if err != nil {
		return false, false, f.s.classify(ctx, "watch run", "run", err)
	}
	buf := make(chan run.Event, f.s.follow.Buffer)
	var overflow atomic.Bool
	go func() {
		defer close(buf)
		for ev := range up {
			select {
			case buf <- ev:
			default:
				overflow.Store(true)
				cancel()
				for range up { // never leave the fan-out blocked on us
				}
				return
			}
		}
	}()
	// Whatever ends this round, let the pump finish before returning.
	defer func() {
		cancel()
		for range buf {
		}
	}()
	for ev := range buf {
		if ev.Seq <= f.cur {
			continue // duplicate at a seam
		}
		if ev.Seq != f.cur+1 {
			return false, true, nil // a gap: fill it from the journal
		}
		if err := f.emit(ev, len(buf) > 0); err != nil {
			return false, false, err
		}
		f.cur, f.progressed = ev.Seq, true
		if ev.Terminal {
			return true, false, nil
		}
		if len(buf) == 0 && !overflow.Load() {
			f.behindSince = time.Time{} // at the live head again
		}
	}
	return false, overflow.Load(), nil
}

// catchUp emits journal pages after the cursor until it reaches the head.
func (f *follower) catchUp(ctx context.Context) (done bool, err error) {
	size := f.s.follow.PageSize
	for {
		evs, err := f.s.store.Events(ctx, f.runID, f.cur, size)
		if err != nil {
			return false, f.s.classify(ctx, "read events", "run", err)
		}
		for i, ev := range evs {
			if ev.Seq <= f.cur {
				continue
			}
			if err := f.emit(ev, i < len(evs)-1 || len(evs) == size); err != nil {
				return false, err
			}
			f.cur = ev.Seq
			if ev.Terminal {
				return true, nil
			}
		}
		if !f.behindSince.IsZero() && time.Since(f.behindSince) > f.s.follow.LagTimeout {
			return false, errTooSlow()
		}
		if len(evs) < size {
			return false, nil
		}
	}
}
