package supervisor

import (
	"encoding/json"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func ev(seq int64, payload string) run.Event {
	return run.Event{Seq: seq, Payload: json.RawMessage(payload)}
}

func seqsOf(evs []run.Event) []int64 {
	out := []int64{}
	for _, e := range evs {
		out = append(out, e.Seq)
	}
	return out
}

// The hub's recent window answers a page only when it holds after+1 and
// something after it; otherwise the caller reads the journal.
func TestHubRecentWindow(t *testing.T) {
	h := &runHub{}
	for seq := int64(5); seq <= 9; seq++ { // a hub may start mid-run (adopted)
		h.publish(ev(seq, `"x"`))
	}
	cases := []struct {
		name   string
		after  int64
		limit  int
		ok     bool
		result []int64
	}{
		{"before the window", 3, 10, false, nil},
		{"the window's first", 4, 10, true, []int64{5, 6, 7, 8, 9}},
		{"inside, limited", 5, 2, true, []int64{6, 7}},
		{"the last", 8, 10, true, []int64{9}},
		{"at the head", 9, 10, false, nil},
		{"past the head", 12, 10, false, nil},
		{"no limit", 5, 0, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, ok := h.since(c.after, c.limit)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if ok && len(evs) != len(c.result) {
				t.Fatalf("got %v, want %v", seqsOf(evs), c.result)
			}
			for i := range c.result {
				if evs[i].Seq != c.result[i] {
					t.Fatalf("got %v, want %v", seqsOf(evs), c.result)
				}
			}
		})
	}
}

// A seq that does not follow the window's last restarts the window, so it
// never answers across a hole; repeats are not published at all.
func TestHubRecentWindowNeverHasAHole(t *testing.T) {
	h := &runHub{}
	h.publish(ev(1, `1`))
	h.publish(ev(2, `2`))
	h.publish(ev(2, `2`)) // a repeat: ignored
	h.publish(ev(5, `5`)) // a hole before 5
	if _, ok := h.since(1, 10); ok {
		t.Fatal("answered across a hole")
	}
	evs, ok := h.since(4, 10)
	if !ok || len(evs) != 1 || evs[0].Seq != 5 {
		t.Fatalf("got %v %v", seqsOf(evs), ok)
	}
}

// The window is bounded by count and by payload bytes, keeping the newest.
func TestHubRecentWindowBounds(t *testing.T) {
	h := &runHub{}
	n := int64(5*recentMax + 3)
	for seq := int64(1); seq <= n; seq++ {
		h.publish(ev(seq, `"x"`))
	}
	if len(h.recent) > 2*recentMax || h.recent[len(h.recent)-1].Seq != n {
		t.Fatalf("window holds %d events ending at %d", len(h.recent), h.recent[len(h.recent)-1].Seq)
	}
	if _, ok := h.since(n-recentMax, 1); !ok {
		t.Fatal("the newest recentMax events are not all held")
	}

	big := make([]byte, recentMaxBytes/2)
	for i := range big {
		big[i] = 'a'
	}
	h = &runHub{}
	for seq := int64(1); seq <= 8; seq++ {
		h.publish(ev(seq, string(big)))
	}
	if h.recentBytes > 2*recentMaxBytes {
		t.Fatalf("window holds %d payload bytes", h.recentBytes)
	}
	if evs, ok := h.since(7, 1); !ok || evs[0].Seq != 8 {
		t.Fatal("the newest event is not held")
	}
}
