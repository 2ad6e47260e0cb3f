package supervisor

import (
	"context"

	"github.com/hermesdesk/hermesdesk/backend/fanout"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// eventPage is how many events one journal read returns.
const eventPage = 512

// Watch streams a run's events with seq > afterSeq, then its live events,
// without gaps or duplicates, and closes the channel after the terminal
// event or when ctx ends. It subscribes to the live feed first, then reads
// the journal after the cursor, filling any gap at the seam. Closing an
// observer (ctx) never touches the run.
func (s *Supervisor) Watch(ctx context.Context, runID string, afterSeq int64) (<-chan run.Event, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	if _, err := s.getRun(ctx, runID); err != nil {
		return nil, err
	}
	if afterSeq < 0 {
		afterSeq = 0
	}
	out := make(chan run.Event, 64)
	h := s.hub(runID, true)
	if !s.go_(func() {
		defer close(out)
		defer s.releaseHub(runID)
		s.watch(ctx, runID, afterSeq, h, out)
	}) {
		s.releaseHub(runID)
		close(out)
	}
	return out, nil
}

func (s *Supervisor) watch(ctx context.Context, runID string, cursor int64, h *runHub, out chan<- run.Event) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()

	send := func(ev run.Event) bool {
		select {
		case out <- ev:
			cursor = ev.Seq
			return true
		case <-ctx.Done():
			return false
		}
	}
	// catchUp reads the journal after the cursor; ended is true once the
	// terminal event was sent or the observer went away.
	catchUp := func(upTo int64) (ended bool) {
		for {
			evs, err := s.Events(ctx, runID, cursor, eventPage)
			if err != nil {
				s.log.Warn("watch: journal read", "run", runID, "err", err)
				return ctx.Err() != nil
			}
			for _, ev := range evs {
				if !send(ev) {
					return true
				}
				if ev.Terminal {
					return true
				}
			}
			if len(evs) < eventPage || (upTo > 0 && cursor >= upTo) {
				return false
			}
		}
	}

	w := h.add()
	defer func() { h.remove(w) }() // w changes after a drop
	if catchUp(0) {
		return
	}
	// A run the journal holds as ended whose events stop short of a `done`
	// (a session imported by an older version, docs/ARCHITECTURE.md
	// §Bundles) gets no more events: end the stream instead of waiting
	// for ever. Its row turned terminal in the transaction of its last
	// event, so one more catch-up reads everything there is.
	if r, err := s.getRun(ctx, runID); err == nil && r.Terminal {
		catchUp(0)
		return
	}
	// Nothing polls: every active run of the data dir is followed by this
	// supervisor (launched or adopted), so its events reach the hub; a run
	// not active yet gets this same hub when it is launched.
	var batch []run.Event
	for {
		evs, end := w.Next(ctx, batch)
		for _, ev := range evs {
			if ev.Seq <= cursor {
				continue // already sent from the journal
			}
			if ev.Seq > cursor+1 {
				if catchUp(ev.Seq - 1) {
					return
				}
				if ev.Seq <= cursor {
					continue
				}
				if ev.Seq > cursor+1 {
					// The journal does not have the missing events yet
					// (not possible once committed); never skip: wait for them.
					continue
				}
			}
			if !send(ev) || ev.Terminal {
				return
			}
		}
		batch = evs
		switch {
		case end == nil:
		case fanout.IsDropped(end):
			// Fell behind: re-register, then catch up from the journal.
			w = h.add()
			batch = nil
			if catchUp(0) {
				return
			}
		default:
			return // the supervisor closed, or ctx ended
		}
	}
}

// Events returns up to limit events of runID with seq > after: from the
// run's hub when its recent window holds them (the payloads the shim
// already sent), else from the journal. Watch's catch-up and the window's
// page pulls both read through it
// (docs/ARCHITECTURE.md §Life of one event).
func (s *Supervisor) Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error) {
	s.mu.Lock()
	h := s.hubs[runID]
	s.mu.Unlock()
	if h != nil {
		if evs, ok := h.since(max(after, 0), limit); ok {
			return evs, nil
		}
	}
	return s.cfg.Store.Events(ctx, runID, after, limit)
}
