package remote

import (
	"context"
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// CursorStore keeps followers' cursors durably: the journal
// (journal.Store.RemoteCursors / SetRemoteCursor, table remote_cursors).
type CursorStore interface {
	RemoteCursors(ctx context.Context, host string) (map[string]int64, error)
	SetRemoteCursor(ctx context.Context, host, runID string, seq int64) error
}

// JournalSink is the local core's Sink: it keeps how far each remote run
// was received, in the journal; the run's events themselves are read
// through /api/hosts/{host}/… while live and copied whole into the journal
// when the run ends (Copier). A restart resumes from the kept cursors.
type JournalSink struct{ Cursor CursorStore }

// Cursors returns host's kept cursors.
func (s JournalSink) Cursors(ctx context.Context, host string) (map[string]int64, error) {
	return s.Cursor.RemoteCursors(ctx, host)
}

// Store moves the run's cursor to its last event.
func (s JournalSink) Store(ctx context.Context, host string, evs []run.Event) error {
	if len(evs) == 0 {
		return nil
	}
	return s.Cursor.SetRemoteCursor(ctx, host, evs[0].RunID, evs[len(evs)-1].Seq)
}

// Hosts runs one Follower per host link and finds links by host id (a
// Lookup for the Proxy and the Copier). backend/hosts calls Follow when a
// host is added or its link is made, Forget when it is removed.
type Hosts struct {
	sink Sink
	o    Options

	// ops serialises Follow, Forget and Close, which wait for a follower
	// to stop; mu guards the maps alone, so Link (called from a
	// follower's Message) never waits for that.
	ops     sync.Mutex
	mu      sync.Mutex
	closed  bool
	links   map[string]Link
	stops   map[string]func()
	running sync.WaitGroup
}

// NewHosts follows hosts into sink with o (o.Message: the local bus and
// the copy).
func NewHosts(sink Sink, o Options) *Hosts {
	return &Hosts{sink: sink, o: o, links: map[string]Link{}, stops: map[string]func(){}}
}

// Follow starts following link's host; a link already followed for that
// host is replaced, its follower stopped first, so one follower per host
// ever moves its cursors.
func (h *Hosts) Follow(link Link) {
	h.ops.Lock()
	defer h.ops.Unlock()
	h.stop(link.Host())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	f := New(link, h.sink, h.o)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		cancel()
		return
	}
	h.links[link.Host()] = link
	h.stops[link.Host()] = func() { cancel(); <-done }
	h.running.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.running.Done()
		defer close(done)
		if err := f.Run(ctx); err != nil {
			f.log.Warn("remote: cannot follow host", "err", err)
		}
	}()
}

// Forget stops following host.
func (h *Hosts) Forget(host string) {
	h.ops.Lock()
	defer h.ops.Unlock()
	h.stop(host)
}

// stop stops host's follower and waits for it (ops held, mu not).
func (h *Hosts) stop(host string) {
	h.mu.Lock()
	stop := h.stops[host]
	delete(h.stops, host)
	delete(h.links, host)
	h.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Link finds a followed host's link.
func (h *Hosts) Link(host string) (Link, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	l, ok := h.links[host]
	return l, ok
}

// Close stops every follower and waits for them.
func (h *Hosts) Close() {
	h.ops.Lock()
	defer h.ops.Unlock()
	h.mu.Lock()
	h.closed = true
	hosts := make([]string, 0, len(h.stops))
	for host := range h.stops {
		hosts = append(hosts, host)
	}
	h.mu.Unlock()
	for _, host := range hosts {
		h.stop(host)
	}
	h.running.Wait()
}
