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
// journal's commit path.
type hub struct {
	buf     int // per-subscriber buffer (subBuffer; small in tests)
	mu      sync.Mutex
	lastSeq int64
	subs    map[*subscriber]struct{}
	closed  bool
}

type subscriber struct {
	after   int64
	ch      chan run.Event
	dropped bool // set under hub.mu before ch is closed
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
			select {
			case s.ch <- ev:
			default:
				s.dropped = true
				delete(h.subs, s)
				close(s.ch)
			}
		}
	}
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
	s = &subscriber{after: after, ch: make(chan run.Event, h.buf)}
	h.subs[s] = struct{}{}
	return s, h.lastSeq, true
}

func (h *hub) remove(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[s]; ok {
		delete(h.subs, s)
		close(s.ch)
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
		delete(h.subs, s)
		close(s.ch)
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
