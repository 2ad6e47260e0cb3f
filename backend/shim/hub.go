package shim

import (
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// subBuffer bounds what a subscriber may lag behind the journal before it is
// dropped. Dropping is cheap for the client (it resumes from its last seq
// through the journal) and keeps a stuck reader from holding the writer.
const subBuffer = 8192

// hub fans committed events out to subscribers without ever blocking the
// journal's commit path. Each subscriber's queue holds only what it lags
// behind (a channel of subBuffer events would allocate ~1 MiB per stream up
// front, in a shim that may idle warm for minutes: docs/ARCHITECTURE.md
// §Memory).
type hub struct {
	buf     int // per-subscriber limit (subBuffer; small in tests)
	mu      sync.Mutex
	lastSeq int64
	subs    map[*subscriber]struct{}
	closed  bool
}

type subscriber struct {
	after   int64
	wake    chan struct{} // cap 1: events queued, or the subscription ended
	queue   []run.Event   // under hub.mu
	ended   bool          // under hub.mu: nothing follows queue
	dropped bool          // under hub.mu: ended for falling behind
}

func newHub(lastSeq int64) *hub {
	return &hub{buf: subBuffer, lastSeq: lastSeq, subs: map[*subscriber]struct{}{}}
}

// publish is the journal's OnCommit callback: events arrive in commit order.
func (h *hub) publish(evs []run.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ev := range evs {
		if ev.Seq > h.lastSeq {
			h.lastSeq = ev.Seq
		}
		for s := range h.subs {
			if ev.Seq <= s.after {
				continue
			}
			if len(s.queue) >= h.buf {
				s.dropped = true
				h.endLocked(s)
				continue
			}
			s.queue = append(s.queue, ev)
			s.notify()
		}
	}
}

func (s *subscriber) notify() {
	select {
	case s.wake <- struct{}{}:
	default: // already signalled; the reader takes everything queued
	}
}

// endLocked ends s's subscription after what is queued; h.mu is held.
func (h *hub) endLocked(s *subscriber) {
	delete(h.subs, s)
	s.ended = true
	s.notify()
}

// add registers a subscriber for events with seq > after and returns the
// last seq committed so far: events up to it are the client's to read from
// the journal. ok is false once the hub is closed (the run is over).
func (h *hub) add(after int64) (s *subscriber, lastSeq int64, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, h.lastSeq, false
	}
	if after < h.lastSeq {
		after = h.lastSeq
	}
	s = &subscriber{after: after, wake: make(chan struct{}, 1)}
	h.subs[s] = struct{}{}
	return s, h.lastSeq, true
}

// take returns what is queued for s, in order, and whether the
// subscription has ended after those events. spare (the batch the caller
// is done with) becomes the next queue, so a steady stream reuses two
// slices; a large one left by a burst is let go.
func (h *hub) take(s *subscriber, spare []run.Event) (evs []run.Event, ended bool) {
	if cap(spare) > 256 {
		spare = nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	evs = s.queue
	s.queue = spare[:0]
	return evs, s.ended
}

func (h *hub) remove(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[s]; ok {
		h.endLocked(s)
	}
}

// isDropped reports whether s was dropped for falling behind (as opposed to
// the hub closing at the end of the run).
func (h *hub) isDropped(s *subscriber) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return s.dropped
}

// close ends every subscription after what is buffered has been delivered.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	for s := range h.subs {
		h.endLocked(s)
	}
}

func (h *hub) last() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lastSeq
}

func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
