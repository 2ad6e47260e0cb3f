// Package watchfake is a watch bus for tests of its consumers (tray,
// notifier): it keeps the active runs, answers Watch with a snapshot of
// them, then forwards every published change; Goodbye ends every stream as
// the real bus does for a watcher that fell behind.
package watchfake

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Bus implements Watch(ctx) (<-chan run.WatchMessage, error).
type Bus struct {
	mu       sync.Mutex
	seq      int64
	runs     map[string]run.RunState
	order    []string
	watchers map[chan run.WatchMessage]struct{}
	fail     error
	watches  int
	changed  chan struct{}
}

// New returns an empty bus.
func New() *Bus {
	return &Bus{runs: map[string]run.RunState{}, watchers: map[chan run.WatchMessage]struct{}{}, changed: make(chan struct{})}
}

// Fail makes the next Watch calls fail with err (nil to stop failing).
func (b *Bus) Fail(err error) {
	b.mu.Lock()
	b.fail = err
	b.mu.Unlock()
}

// Watches counts the Watch calls that succeeded.
func (b *Bus) Watches() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.watches
}

// Watchers counts the open streams.
func (b *Bus) Watchers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.watchers)
}

// WaitWatchers blocks until n streams are open or ctx ends.
func (b *Bus) WaitWatchers(ctx context.Context, n int) error {
	for {
		b.mu.Lock()
		have, ch := len(b.watchers), b.changed
		b.mu.Unlock()
		if have >= n {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (b *Bus) kick() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// Watch opens a stream: the snapshot first, then changes.
func (b *Bus) Watch(ctx context.Context) (<-chan run.WatchMessage, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail != nil {
		return nil, b.fail
	}
	if ctx.Err() != nil {
		return nil, errors.New("watchfake: context done")
	}
	ch := make(chan run.WatchMessage, 1024)
	snap := &run.WatchSnapshot{Runs: []run.RunState{}}
	for _, id := range b.order {
		snap.Runs = append(snap.Runs, b.runs[id])
	}
	ch <- run.WatchMessage{Seq: b.seq, Type: run.WatchSnapshotType, Snapshot: snap}
	b.watchers[ch] = struct{}{}
	b.watches++
	b.kick()
	go func() {
		<-ctx.Done()
		b.mu.Lock()
		defer b.mu.Unlock()
		if _, ok := b.watchers[ch]; ok {
			delete(b.watchers, ch)
			close(ch)
			b.kick()
		}
	}()
	return ch, nil
}

// Publish records a run's new state and tells every watcher.
func (b *Bus) Publish(r run.RunState) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.setLocked(r)
	b.seq++
	rc := r
	b.send(run.WatchMessage{Seq: b.seq, Type: run.WatchRunChanged, Run: &rc})
}

// Goodbye ends every stream with a goodbye, as the real bus does to a
// watcher that fell behind.
func (b *Bus) Goodbye(reason string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	b.send(run.WatchMessage{Seq: b.seq, Type: run.WatchGoodbye, Reason: reason})
	for ch := range b.watchers {
		close(ch)
		delete(b.watchers, ch)
	}
	b.kick()
}

// SetQuiet changes a run's state without telling anyone: what a watcher
// that fell behind missed, to be seen in its next snapshot.
func (b *Bus) SetQuiet(r run.RunState) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.setLocked(r)
}

// setLocked keeps r as its run's state, or forgets an ended run.
func (b *Bus) setLocked(r run.RunState) {
	if r.Status.Terminal() {
		delete(b.runs, r.RunID)
		b.order = slices.DeleteFunc(b.order, func(id string) bool { return id == r.RunID })
		return
	}
	if _, ok := b.runs[r.RunID]; !ok {
		b.order = append(b.order, r.RunID)
	}
	b.runs[r.RunID] = r
}

func (b *Bus) send(m run.WatchMessage) {
	for ch := range b.watchers {
		select {
		case ch <- m:
		default: // a test watcher 1024 messages behind: end it like the bus would
			close(ch)
			delete(b.watchers, ch)
		}
	}
}
