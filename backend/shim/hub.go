package shim

import (
	"github.com/hermesdesk/hermesdesk/backend/fanout"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// subBuffer bounds what a subscriber may lag behind the journal before it is
// dropped. Dropping is cheap for the client (it resumes from its last seq
// through the journal) and keeps a stuck reader from holding the writer.
const subBuffer = 8192

// hub fans committed events out to the control socket's subscribers through
// the one fan-out (backend/fanout), never blocking the journal's commit
// path. Each subscriber's queue holds only what it lags behind (a channel
// of subBuffer events would allocate ~1 MiB per stream up front, in a shim
// that may idle warm for minutes: docs/ARCHITECTURE.md §Memory).
type hub struct {
	f *fanout.Hub[run.Event]
}

type subscriber = fanout.Sub[run.Event]

func eventSeq(ev run.Event) int64 { return ev.Seq }

func newHub(lastSeq int64) *hub {
	return &hub{f: fanout.New(eventSeq, lastSeq, subBuffer)}
}

// publish is the journal's OnCommit callback: events arrive in commit order.
func (h *hub) publish(evs []run.Event) { h.f.Publish(evs...) }

// add registers a subscriber for the events committed from now on and
// returns the last seq committed so far: events after `after` up to it are
// the client's to read from the journal. ok is false once the hub is
// closed (the run is over).
func (h *hub) add(after int64) (s *subscriber, lastSeq int64, ok bool) {
	s, lastSeq, err := h.f.Subscribe()
	return s, lastSeq, err == nil
}

// take returns what is queued for s, in order, and whether the
// subscription has ended after those events.
func (h *hub) take(s *subscriber, spare []run.Event) (evs []run.Event, ended bool) {
	evs, end := s.Take(spare)
	return evs, end != nil
}

func (h *hub) remove(s *subscriber) { s.Cancel() }

// isDropped reports whether s was dropped for falling behind (as opposed to
// the hub closing at the end of the run).
func (h *hub) isDropped(s *subscriber) bool { return fanout.IsDropped(s.Err()) }

// close ends every subscription after what is buffered has been delivered.
func (h *hub) close() { h.f.Close() }

func (h *hub) last() int64 { return h.f.Last() }

func (h *hub) count() int { return h.f.Count() }
