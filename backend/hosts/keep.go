package hosts

import (
	"context"
	"sync"
)

// Keeping every host linked (docs/ARCHITECTURE.md §Hosts, "Joined"): the
// data dir's supervisor calls Keep once; from then on each stored host has
// one link, handed to the follower of its core, from start and from its
// add, until it is removed or the supervisor closes.

// Follower reads a linked host's core (backend/remote.Hosts): Follow is
// given each host's link once, Forget its id when the host is removed.
type Follower interface {
	Follow(l *Link)
	Forget(id string)
}

type keeper struct {
	mu     sync.Mutex
	ctx    context.Context // nil until Keep
	follow Follower
	stops  map[string]context.CancelFunc
}

// Keep links every stored host now, and each host added later, handing
// each link to f; the links end with ctx. A host that cannot be reached
// now is linked all the same: its link starts the host's core with
// back-off until it answers.
func (s *Service) Keep(ctx context.Context, f Follower) error {
	if s.o.RuntimeDir == "" {
		return errNoRuntime
	}
	s.kept.mu.Lock()
	s.kept.ctx, s.kept.follow, s.kept.stops = ctx, f, map[string]context.CancelFunc{}
	s.kept.mu.Unlock()
	list, err := s.store.ListHosts(ctx)
	if err != nil {
		return err
	}
	for _, h := range list {
		s.keep(h)
	}
	return nil
}

// keep links h unless it is linked already or nobody keeps links.
func (s *Service) keep(h Host) {
	k := &s.kept
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.ctx == nil || k.ctx.Err() != nil || k.stops[h.ID] != nil {
		return
	}
	if err := ensureHostsDir(s.o.RuntimeDir); err != nil {
		s.log.Warn("hosts: cannot link", "target", h.Target, "err", err)
		return
	}
	ctx, cancel := context.WithCancel(k.ctx)
	done := make(chan struct{})
	k.stops[h.ID] = func() { cancel(); <-done }
	l := s.newLink(h, "", nil)
	go func() {
		defer close(done)
		l.Run(ctx)
	}()
	k.follow.Follow(l)
}

// unkeep stops host id's follower, then its link.
func (s *Service) unkeep(id string) {
	k := &s.kept
	k.mu.Lock()
	stop := k.stops[id]
	delete(k.stops, id)
	f := k.follow
	k.mu.Unlock()
	if stop == nil {
		return
	}
	f.Forget(id)
	stop()
}
