package journal

import (
	"context"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// notifier rings in-process subscribers after each commit: a doorbell
// (chan struct{} of capacity 1), never the events themselves, so a slow
// subscriber costs nothing and reads what it missed from the journal.
type notifier struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]struct{} // "" = every run
}

func (n *notifier) init() { n.subs = map[string]map[chan struct{}]struct{}{} }

// Subscribe returns a doorbell rung after every commit that adds events to
// runID ("" = any run), and a cancel func. The channel holds at most one
// pending ring: on a ring, read the journal after your cursor.
func (s *Store) Subscribe(runID string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	n := &s.notify
	n.mu.Lock()
	if n.subs == nil {
		n.mu.Unlock()
		close(ch)
		return ch, func() {}
	}
	m := n.subs[runID]
	if m == nil {
		m = map[chan struct{}]struct{}{}
		n.subs[runID] = m
	}
	m[ch] = struct{}{}
	n.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			n.mu.Lock()
			defer n.mu.Unlock()
			if m, ok := n.subs[runID]; ok {
				if _, ok := m[ch]; ok {
					delete(m, ch)
					if len(m) == 0 {
						delete(n.subs, runID)
					}
				}
			}
		})
	}
}

func (n *notifier) ring(evs []run.Event) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.subs) == 0 {
		return
	}
	last := ""
	for _, ev := range evs {
		if ev.RunID == last {
			continue
		}
		last = ev.RunID
		for ch := range n.subs[ev.RunID] {
			ringOne(ch)
		}
	}
	for ch := range n.subs[""] {
		ringOne(ch)
	}
}

func ringOne(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// closeAll closes every doorbell when the store closes, so subscribers
// blocked on one wake up and see the end.
func (n *notifier) closeAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, m := range n.subs {
		for ch := range m {
			close(ch)
		}
	}
	n.subs = nil
}

// WatchChanges rings when any process commits to the database, by polling
// PRAGMA data_version (one cheap query per interval on one connection, not
// a table scan per subscriber). It is the cross-process fallback; live
// events come from the shim's socket (DESIGN §6). The channel closes when
// ctx ends.
func (s *Store) WatchChanges(ctx context.Context, interval time.Duration) <-chan struct{} {
	if interval <= 0 {
		interval = 5 * time.Millisecond
	}
	out := make(chan struct{}, 1)
	go func() {
		defer close(out)
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return
		}
		defer conn.Close()
		var last int64 = -1
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			var v int64
			if err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
				if ctx.Err() != nil {
					return
				}
			} else {
				if last >= 0 && v != last {
					ringOne(out)
				}
				last = v
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return out
}
