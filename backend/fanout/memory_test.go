package fanout

import "testing"

// A subscriber's queue grows with what it lags behind, not a buffer sized
// for the worst case up front (docs/ARCHITECTURE.md §Memory: a warm shim
// idles with a subscription open).
func TestNewSubscriberHoldsNoRoom(t *testing.T) {
	h := New(func(n int64) int64 { return n }, 0, 8192)
	s, _, _ := h.Subscribe()
	if cap(s.queue) != 0 {
		t.Fatalf("a new subscriber holds room for %d items", cap(s.queue))
	}
}
