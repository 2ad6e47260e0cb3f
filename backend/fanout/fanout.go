// Package fanout is the one seq-ordered fan-out of the live path
// (docs/ARCHITECTURE.md §Life of one event): the shim's hub, the
// supervisor's per-run hub and the watch bus all publish through it.
//
// A publisher never blocks: each subscriber has a bounded queue of what it
// lags behind; one whose queue is full is dropped with a typed *Dropped
// that says where to resume. Items whose seq is not newer than the last
// published are ignored, so a feed that repeats itself (a resubscription,
// an adoption) never reaches a subscriber twice.
package fanout

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrClosed ends a subscription whose hub closed (the stream is over).
var ErrClosed = errors.New("the stream ended")

// ErrCancelled ends a subscription its own reader cancelled.
var ErrCancelled = errors.New("the subscription was cancelled")

// Dropped ends a subscription that fell behind: everything up to and
// including After was queued for it; resume from the seq after it (from
// the journal, or a fresh snapshot).
type Dropped struct{ After int64 }

func (d *Dropped) Error() string {
	return fmt.Sprintf("the reader fell behind; resume after seq %d", d.After)
}

// IsDropped reports whether err ends a subscription that fell behind.
func IsDropped(err error) bool {
	var d *Dropped
	return errors.As(err, &d)
}

// Hub fans items out in seq order. The zero value is not usable: see New.
type Hub[T any] struct {
	seqOf func(T) int64

	mu     sync.Mutex
	limit  int
	last   int64
	subs   map[*Sub[T]]struct{}
	closed bool
}

// Sub is one subscription: items arrive in its queue, Ready signals them.
type Sub[T any] struct {
	h      *Hub[T]
	wake   chan struct{} // cap 1: items queued, or the subscription ended
	queue  []T           // under h.mu
	queued int64         // under h.mu: the seq of the newest item queued
	end    error         // under h.mu: nil while subscribed
}

// New returns a hub whose last published seq is last; limit bounds each
// subscriber's queue (at least 1).
func New[T any](seqOf func(T) int64, last int64, limit int) *Hub[T] {
	return &Hub[T]{seqOf: seqOf, last: last, limit: max(limit, 1), subs: map[*Sub[T]]struct{}{}}
}

// SetLimit changes the bound of every subscriber's queue from now on.
func (h *Hub[T]) SetLimit(limit int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.limit = max(limit, 1)
}

// Publish queues each item newer than the last published for every
// subscriber, in order, and reports how many were new. It never blocks on
// a reader. Callers that must see items in order publish under their own
// lock (the supervisor's tap, the bus's snapshot).
func (h *Hub[T]) Publish(items ...T) (fresh int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, it := range items {
		seq := h.seqOf(it)
		if seq <= h.last || h.closed {
			continue
		}
		h.last = seq
		fresh++
		for s := range h.subs {
			if len(s.queue) >= h.limit {
				h.endLocked(s, &Dropped{After: s.queued})
				continue
			}
			s.queue = append(s.queue, it)
			s.queued = seq
			s.notify()
		}
	}
	return fresh
}

// Subscribe registers a subscriber for every item published from now on
// and returns the last seq published so far (what came before is the
// caller's to read elsewhere: the journal, a snapshot). err is ErrClosed
// once the hub is closed, with last still reported.
func (h *Hub[T]) Subscribe() (s *Sub[T], last int64, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, h.last, ErrClosed
	}
	s = &Sub[T]{h: h, wake: make(chan struct{}, 1), queued: h.last}
	h.subs[s] = struct{}{}
	return s, h.last, nil
}

// Last is the seq of the newest item published.
func (h *Hub[T]) Last() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.last
}

// Count is the number of live subscriptions.
func (h *Hub[T]) Count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// Close ends every subscription with ErrClosed after what is queued, and
// refuses new ones.
func (h *Hub[T]) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	h.endAllLocked(ErrClosed)
}

// EndAll ends every current subscription with ErrClosed after what is
// queued; the hub stays open for new ones.
func (h *Hub[T]) EndAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.endAllLocked(ErrClosed)
}

func (h *Hub[T]) endAllLocked(err error) {
	for s := range h.subs {
		h.endLocked(s, err)
	}
}

func (h *Hub[T]) endLocked(s *Sub[T], err error) {
	delete(h.subs, s)
	s.end = err
	s.notify()
}

func (s *Sub[T]) notify() {
	select {
	case s.wake <- struct{}{}:
	default: // already signalled: the reader takes everything queued
	}
}

// Ready is signalled when items were queued or the subscription ended;
// call Take then.
func (s *Sub[T]) Ready() <-chan struct{} { return s.wake }

// Take returns what is queued, in order, and, once nothing follows these
// items, why the subscription ended (ErrClosed, ErrCancelled or *Dropped).
// spare (the batch the caller is done with) becomes the next queue, so a
// steady stream reuses two slices; a large one left by a burst is let go.
func (s *Sub[T]) Take(spare []T) (items []T, end error) {
	if cap(spare) > 256 {
		spare = nil
	}
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	items = s.queue
	s.queue = spare[:0]
	return items, s.end
}

// Next waits until items are queued or the subscription ended, then takes
// them like Take; it returns ctx's error if ctx ends first.
func (s *Sub[T]) Next(ctx context.Context, spare []T) ([]T, error) {
	for {
		items, end := s.Take(spare)
		if len(items) > 0 || end != nil {
			return items, end
		}
		spare = items
		select {
		case <-s.wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Queued is how many items wait in the subscription's queue.
func (s *Sub[T]) Queued() int {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return len(s.queue)
}

// Err is why the subscription ended (nil while subscribed).
func (s *Sub[T]) Err() error {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return s.end
}

// Cancel ends the subscription with ErrCancelled (after what is queued);
// it does nothing to one already ended.
func (s *Sub[T]) Cancel() {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	if _, ok := s.h.subs[s]; ok {
		s.h.endLocked(s, ErrCancelled)
	}
}
