package fanout_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/fanout"
)

func seqOf(n int64) int64 { return n }

// step is one move of a table test: publish items, or have reader r take.
type step struct {
	publish []int64
	take    int // reader index taking everything queued (-1: none)
	cancel  int // reader index cancelling (-1: none)
	close   bool
}

func TestHub(t *testing.T) {
	pub := func(s ...int64) step { return step{publish: s, take: -1, cancel: -1} }
	take := func(r int) step { return step{take: r, cancel: -1} }
	tests := []struct {
		name    string
		last    int64
		limit   int
		readers int
		steps   []step
		want    []string // per reader: what it took, then how it ended
	}{
		{"keeps up", 0, 2, 1, []step{pub(1), take(0), pub(2, 3), take(0)},
			[]string{"[1 2 3] <nil>"}},
		{"only what is newer than the hub's last", 5, 4, 1, []step{pub(4, 5, 6), take(0)},
			[]string{"[6] <nil>"}},
		{"a repeat is ignored", 0, 4, 1, []step{pub(1, 2), pub(2), pub(3), take(0)},
			[]string{"[1 2 3] <nil>"}},
		{"lagging reader dropped with where to resume, keeps what was queued", 0, 2, 2,
			[]step{pub(1), take(0), pub(2), take(0), pub(3), take(0), take(1)},
			[]string{"[1 2 3] <nil>", "[1 2] the reader fell behind; resume after seq 2"}},
		{"a dropped reader gets nothing more", 0, 1, 1, []step{pub(1, 2, 3), take(0)},
			[]string{"[1] the reader fell behind; resume after seq 1"}},
		{"close delivers what is queued, then ends", 0, 4, 1,
			[]step{pub(1, 2), {take: -1, cancel: -1, close: true}, pub(3), take(0)},
			[]string{"[1 2] the stream ended"}},
		{"cancel ends only that reader", 0, 4, 2,
			[]step{pub(1), {take: -1, cancel: 1}, pub(2), take(0), take(1)},
			[]string{"[1 2] <nil>", "[1] the subscription was cancelled"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := fanout.New(seqOf, tc.last, tc.limit)
			subs := make([]*fanout.Sub[int64], tc.readers)
			got := make([][]int64, tc.readers)
			ends := make([]error, tc.readers)
			for i := range subs {
				s, last, err := h.Subscribe()
				if err != nil || last != tc.last {
					t.Fatalf("Subscribe = %d, %v", last, err)
				}
				subs[i] = s
			}
			for _, st := range tc.steps {
				if st.publish != nil {
					h.Publish(st.publish...)
				}
				if st.take >= 0 {
					items, end := subs[st.take].Take(nil)
					got[st.take] = append(got[st.take], items...)
					ends[st.take] = end
				}
				if st.cancel >= 0 {
					subs[st.cancel].Cancel()
				}
				if st.close {
					h.Close()
				}
			}
			for i := range subs {
				if g := fmt.Sprint(got[i], " ", ends[i]); g != tc.want[i] {
					t.Errorf("reader %d: %s, want %s", i, g, tc.want[i])
				}
			}
		})
	}
}

func TestDroppedIsTyped(t *testing.T) {
	h := fanout.New(seqOf, 10, 1)
	s, _, _ := h.Subscribe()
	h.Publish(11, 12)
	_, end := s.Take(nil)
	var d *fanout.Dropped
	if !errors.As(end, &d) || d.After != 11 || !fanout.IsDropped(end) {
		t.Fatalf("end = %v, want dropped after 11", end)
	}
	if fanout.IsDropped(fanout.ErrClosed) {
		t.Fatal("a close is not a drop")
	}
	if h.Count() != 0 || h.Last() != 12 {
		t.Fatalf("count %d last %d", h.Count(), h.Last())
	}
	// Resume: a new subscription starts after the hub's last seq; the
	// reader fills 12 from elsewhere (the journal).
	s, last, err := h.Subscribe()
	if err != nil || last != 12 {
		t.Fatalf("resubscribe = %d, %v", last, err)
	}
	h.Publish(13)
	if items, end := s.Take(nil); fmt.Sprint(items) != "[13]" || end != nil {
		t.Fatalf("after resume %v %v", items, end)
	}
}

func TestSubscribeAfterClose(t *testing.T) {
	h := fanout.New(seqOf, 3, 1)
	h.Close()
	if _, last, err := h.Subscribe(); err != fanout.ErrClosed || last != 3 {
		t.Fatalf("Subscribe after close = %d, %v", last, err)
	}
}

func TestEndAllKeepsTheHubOpen(t *testing.T) {
	h := fanout.New(seqOf, 0, 4)
	s, _, _ := h.Subscribe()
	h.EndAll()
	if _, end := s.Take(nil); end != fanout.ErrClosed {
		t.Fatalf("end = %v", end)
	}
	if _, _, err := h.Subscribe(); err != nil {
		t.Fatalf("Subscribe after EndAll: %v", err)
	}
}

func TestNextWaitsForItemsOrContext(t *testing.T) {
	h := fanout.New(seqOf, 0, 8)
	s, _, _ := h.Subscribe()
	go h.Publish(1)
	items, err := s.Next(context.Background(), nil)
	if fmt.Sprint(items) != "[1]" || err != nil {
		t.Fatalf("Next = %v, %v", items, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Next(ctx, nil); err != context.Canceled {
		t.Fatalf("Next on a cancelled context = %v", err)
	}
}

// Concurrent publishers and readers under -race: each reader sees a
// strictly increasing run of seqs, with no gap unless it was dropped.
func TestConcurrentReadersSeeOrder(t *testing.T) {
	h := fanout.New(seqOf, 0, 16)
	const n = 5000
	var wg sync.WaitGroup
	for range 4 {
		s, _, _ := h.Subscribe()
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev := int64(0)
			for {
				items, err := s.Next(context.Background(), nil)
				for _, it := range items {
					if it != prev+1 {
						t.Errorf("seq %d after %d", it, prev)
						return
					}
					prev = it
				}
				if err != nil {
					var d *fanout.Dropped
					if errors.As(err, &d) && d.After != prev {
						t.Errorf("dropped after %d, last taken %d", d.After, prev)
					}
					return
				}
			}
		}()
	}
	var mu sync.Mutex
	next := int64(0)
	var pw sync.WaitGroup
	for range 2 {
		pw.Add(1)
		go func() {
			defer pw.Done()
			for {
				mu.Lock() // publishers serialise, as the hubs' owners do
				if next == n {
					mu.Unlock()
					return
				}
				next++
				h.Publish(next)
				mu.Unlock()
			}
		}()
	}
	pw.Wait()
	h.Close()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("readers never ended after Close")
	}
}
