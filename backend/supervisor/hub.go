package supervisor

import (
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/fanout"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// watcherBuffer bounds how far one observer may lag the live stream before
// it is switched back to journal catch-up (it never blocks the feed).
const watcherBuffer = 4096

// The hub keeps a run's newest events in memory, so that a page pulled
// right after a doorbell (the window) or a watcher's catch-up is served
// from the payloads the shim already sent, not read back from the journal
// (docs/ARCHITECTURE.md §Life of one event). Bounded by count and bytes.
const (
	recentMax      = 2048
	recentMaxBytes = 4 << 20
)

// runHub fans one run's live events out to its observers, from memory,
// through the one fan-out (backend/fanout). Events arrive from the shim's
// subscription (and from the journal after supervisor-side writes),
// deduplicated by seq.
type runHub struct {
	mu      sync.Mutex
	lastSeq int64
	fan     *fanout.Hub[run.Event] // made on first use: the zero runHub works
	refs    int
	// tap reports every new event to the supervisor's event tap (the watch
	// bus), under mu so that it sees each run's events in seq order.
	tap func(run.Event)
	// recent holds the newest published events, contiguous by seq, and
	// their payload bytes.
	recent      []run.Event
	recentBytes int
}

// watcher is one observer's subscription; it ends with *fanout.Dropped
// when the observer fell behind (Watch then catches up from the journal).
type watcher = fanout.Sub[run.Event]

func eventSeq(ev run.Event) int64 { return ev.Seq }

// fanLocked is the hub's fan-out (h.mu held).
func (h *runHub) fanLocked() *fanout.Hub[run.Event] {
	if h.fan == nil {
		h.fan = fanout.New(eventSeq, h.lastSeq, watcherBuffer)
	}
	return h.fan
}

// publish delivers ev to every watcher unless it is not newer than what
// the hub already delivered; it reports whether ev was new.
func (h *runHub) publish(ev run.Event) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ev.Seq <= h.lastSeq {
		return false
	}
	h.remember(ev)
	h.lastSeq = ev.Seq
	if h.tap != nil {
		h.tap(ev)
	}
	if h.fan != nil {
		h.fan.Publish(ev)
	}
	return true
}

// remember appends ev to the recent window (under mu, before lastSeq moves);
// a seq that does not follow the window's last restarts it, so the window
// never has a hole.
func (h *runHub) remember(ev run.Event) {
	if n := len(h.recent); n > 0 && h.recent[n-1].Seq+1 != ev.Seq {
		h.recent, h.recentBytes = nil, 0
	}
	h.recent = append(h.recent, ev)
	h.recentBytes += len(ev.Payload)
	if len(h.recent) <= 2*recentMax && h.recentBytes <= 2*recentMaxBytes {
		return // trimmed in batches: amortised O(1) per event
	}
	drop := 0
	for len(h.recent)-drop > recentMax || (h.recentBytes > recentMaxBytes && len(h.recent)-drop > 1) {
		h.recentBytes -= len(h.recent[drop].Payload)
		drop++
	}
	// Copy down so the dropped events' payloads can be collected.
	h.recent = append(h.recent[:0:0], h.recent[drop:]...)
}

// since returns up to limit events after `after` from memory; ok is false
// when the window does not hold after+1 (read the journal instead).
func (h *runHub) since(after int64, limit int) (evs []run.Event, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.recent)
	if n == 0 || limit <= 0 {
		return nil, false
	}
	first := h.recent[0].Seq
	if after+1 < first || after >= h.recent[n-1].Seq {
		return nil, false
	}
	from := int(after + 1 - first)
	to := min(n, from+limit)
	return append([]run.Event(nil), h.recent[from:to]...), true
}

// skipTo moves a hub that has published nothing past seq: events up to
// it are read from the journal by whoever needs them.
func (h *runHub) skipTo(seq int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lastSeq == 0 && h.fan == nil {
		h.lastSeq = seq
	}
}

func (h *runHub) last() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lastSeq
}

// add subscribes an observer to the events published from now on.
func (h *runHub) add() *watcher {
	h.mu.Lock()
	defer h.mu.Unlock()
	w, _, _ := h.fanLocked().Subscribe() // the hub's fan-out is never closed, only emptied
	return w
}

func (h *runHub) remove(w *watcher) { w.Cancel() }

// closeAll ends every observer's subscription (the supervisor closing).
func (h *runHub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fan != nil {
		h.fan.EndAll()
	}
}

// hub returns runID's hub, creating it; ref counts a Watch holding it.
func (s *Supervisor) hub(runID string, ref bool) *runHub {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.hubs[runID]
	if h == nil {
		h = &runHub{tap: s.emitTap}
		s.hubs[runID] = h
	}
	if ref {
		h.refs++
	}
	return h
}

// releaseHub drops a Watch's reference; an idle hub of an untracked run is
// forgotten (a later Watch starts from the journal again).
func (s *Supervisor) releaseHub(runID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.hubs[runID]
	if h == nil {
		return
	}
	h.refs--
	if h.refs <= 0 && s.tracked[runID] == nil {
		delete(s.hubs, runID)
	}
}

// TapEvents installs tap, called once for every new live event of every
// run this supervisor follows or observes, after its commit, in seq order
// per run (docs/ARCHITECTURE.md "The watch bus"). tap must not block.
func (s *Supervisor) TapEvents(tap func(run.Event)) { s.tap.Store(&tap) }

func (s *Supervisor) emitTap(ev run.Event) {
	if f := s.tap.Load(); f != nil {
		(*f)(ev)
	}
}
