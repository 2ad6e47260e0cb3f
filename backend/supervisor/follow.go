// Observation (docs/ARCHITECTURE.md §Life of one event): the supervisor
// tracks every run it launched or adopted and follows its shim's control
// socket into the run's hub (hub.go); Watch (watch.go) merges journal and
// live for observers.

package supervisor

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// tracked is a run whose shim this supervisor launched or adopted.
type tracked struct {
	runID     string
	sessionID string

	mu    sync.Mutex
	boot  control.Bootstrap
	err   error
	ready chan struct{} // closed once boot (or err) is known
	once  sync.Once
	// gone, when asked for (untracked), is closed as the run is untracked.
	gone chan struct{} // under the supervisor's mu
}

func (t *tracked) setBoot(b control.Bootstrap) {
	t.mu.Lock()
	t.boot = b
	t.mu.Unlock()
	t.once.Do(func() { close(t.ready) })
}

func (t *tracked) fail(err error) {
	t.mu.Lock()
	t.err = err
	t.mu.Unlock()
	t.once.Do(func() { close(t.ready) })
}

// bootstrap waits (bounded by ctx) until the shim's bootstrap is known.
func (t *tracked) bootstrap(ctx context.Context) (control.Bootstrap, error) {
	select {
	case <-t.ready:
	case <-ctx.Done():
		return control.Bootstrap{}, ctx.Err()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.boot, t.err
}

func (s *Supervisor) track(r run.Run) *tracked {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &tracked{runID: r.ID, sessionID: r.SessionID, ready: make(chan struct{})}
	s.tracked[r.ID] = t
	if s.hubs[r.ID] == nil {
		s.hubs[r.ID] = &runHub{tap: s.emitTap}
	}
	return t
}

func (s *Supervisor) untrack(runID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tracked[runID]; t != nil && t.gone != nil {
		close(t.gone)
	}
	delete(s.tracked, runID)
	if h := s.hubs[runID]; h != nil && h.refs <= 0 {
		delete(s.hubs, runID)
	}
}

// untracked returns a channel closed once runID is no longer tracked
// (closed already when it is not).
func (s *Supervisor) untracked(runID string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tracked[runID]
	if t == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	if t.gone == nil {
		t.gone = make(chan struct{})
	}
	return t.gone
}

func (s *Supervisor) lookup(runID string) *tracked {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tracked[runID]
}

// follow feeds the run's hub from the shim's event stream until the run
// ends, resubscribing after a drop and re-checking the shim whenever the
// connection breaks.
func (s *Supervisor) follow(t *tracked) {
	h := s.hub(t.runID, false)
	backoff := 20 * time.Millisecond
	for s.ctx.Err() == nil {
		boot, _ := t.bootstrap(s.ctx)
		err := s.stream(h, boot)
		if s.ctx.Err() != nil {
			return
		}
		if errors.Is(err, control.ErrDropped) {
			continue // fell behind; resume from the hub's last seq
		}
		if !s.check(t.runID).keepFollowing() {
			return
		}
		// Alive but unreachable for now (busy, restarting its listener):
		// try again, re-reading the bootstrap in case it changed.
		if b, err := control.ReadBootstrap(s.cfg.DataDir, t.runID); err == nil {
			t.setBoot(b)
		}
		select {
		case <-time.After(backoff):
		case <-s.ctx.Done():
			return
		}
		if backoff < time.Second {
			backoff *= 2
		}
	}
}

// stream subscribes once and publishes until the stream ends.
func (s *Supervisor) stream(h *runHub, boot control.Bootstrap) error {
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.ControlTimeout)
	sub, err := control.Subscribe(ctx, boot, h.last())
	cancel()
	if err != nil {
		return err
	}
	stop := context.AfterFunc(s.ctx, func() { sub.Close() })
	defer stop()
	defer sub.Close()
	// The shim streams what it commits after sub.LastSeq; what it
	// committed before (a fast agent asks for approval before the
	// supervisor has subscribed) is read from the journal first, or the
	// watch bus would not learn of it until the next commit — never, for
	// a run that waits for a person.
	if sub.LastSeq > h.last() {
		s.publishJournal(h, boot.RunID)
	}
	for {
		ev, err := sub.Next()
		if err != nil {
			return err
		}
		h.publish(ev)
	}
}

// publishFromJournal pushes events the supervisor itself wrote (or that a
// shim committed while nobody streamed) to the run's observers and to the
// event tap. A run nobody follows or watches — a queued run cancelled
// before its shim started, one interrupted before it ran — has no hub: one
// is held for this publish, so the watch bus (and the tray and sidebar
// that read it) learns that the run ended, as the journal says
// (docs/ARCHITECTURE.md §The watch bus; issue 23.1's phantom runs).
func (s *Supervisor) publishFromJournal(runID string) {
	h := s.hub(runID, true)
	defer s.releaseHub(runID)
	s.publishJournal(h, runID)
}

// publishJournal publishes runID's journaled events after h's last seq.
func (s *Supervisor) publishJournal(h *runHub, runID string) {
	ctx := context.WithoutCancel(s.ctx)
	for {
		evs, err := s.cfg.Store.Events(ctx, runID, h.last(), eventPage)
		if err != nil || len(evs) == 0 {
			return
		}
		for _, ev := range evs {
			h.publish(ev)
		}
		if len(evs) < eventPage {
			return
		}
	}
}
