package httpapi_test

import (
	"context"
	"fmt"
	"github.com/hermesdesk/hermesdesk/testkit/watchfake"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// Doorbells are coalesced once, by the bus's owner, per watcher: a proxy
// passes on every doorbell of the owner's /api/watch?doorbells=1 as it
// comes, even three of one run within one frame (docs/ARCHITECTURE.md
// §Life of one event).
func TestProxyDoorbellsAreNotCoalescedAgain(t *testing.T) {
	bell := func(seq int) string {
		return fmt.Sprintf(`{"seq":1,"type":"doorbell","run":{"run_id":"r1","last_seq":%d}}`, seq)
	}
	sock, queries := watchfake.Socket(t, `{"seq":1,"type":"snapshot","snapshot":{"runs":[]}}`, bell(3), bell(4), bell(5))

	proxy := httpapi.NewProxy(sock, httpapi.Config{Log: quiet})
	rings := make(chan string, 8)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		proxy.Doorbells(ctx, func(id string, seq int64) { rings <- fmt.Sprintf("%s:%d", id, seq) })
	}()
	defer func() { cancel(); <-done }()
	var got []string
	for range 3 {
		select {
		case r := <-rings:
			got = append(got, r)
		case <-time.After(5 * time.Second): // far beyond a frame: the rest is not coming
			t.Fatalf("rings %v, want every doorbell the owner sent", got)
		}
	}
	if fmt.Sprint(got) != "[r1:3 r1:4 r1:5]" {
		t.Fatalf("rings %v, want every doorbell the owner sent", got)
	}
	if q := <-queries; q != "doorbells=1" {
		t.Fatalf("the proxy watched with %q", q)
	}
}
