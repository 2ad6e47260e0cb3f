package app

import (
	"context"
	"fmt"
	"github.com/hermesdesk/hermesdesk/testkit/watchfake"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// The window process holds one stream of the core's bus, doorbells
// included, and passes the doorbells on as the core coalesced them (once,
// per watcher): two doorbells of a run back to back are two events here,
// and the bus's other messages are `watch` events (docs/ARCHITECTURE.md
// §Life of one event).
func TestFollowBusHoldsOneStreamWithDoorbells(t *testing.T) {
	sock, queries := watchfake.Socket(t,
		`{"seq":7,"type":"snapshot","snapshot":{"runs":[],"sessions_version":1}}`,
		`{"seq":7,"type":"doorbell","run":{"run_id":"r1","last_seq":3}}`,
		`{"seq":7,"type":"doorbell","run":{"run_id":"r1","last_seq":4}}`,
		`{"seq":8,"type":"session.changed","session":{"kind":"updated","session_id":"s1","sessions_version":2}}`)

	type emitted struct {
		name string
		data any
	}
	got := make(chan emitted, 16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		followBus(ctx, httpapi.NewLocalClient(sock), func(name string, data any) { got <- emitted{name, data} })
	}()
	defer func() { cancel(); <-done }()

	var seen []string
	for range 4 {
		e := <-got
		switch d := e.data.(type) {
		case map[string]any:
			seen = append(seen, fmt.Sprintf("%s %v:%v", e.name, d["run_id"], d["seq"]))
		default:
			seen = append(seen, fmt.Sprintf("%s %T", e.name, d))
		}
	}
	want := "[watch run.WatchMessage run:doorbell r1:3 run:doorbell r1:4 watch run.WatchMessage]"
	if fmt.Sprint(seen) != want {
		t.Fatalf("emitted %v\nwant    %s", seen, want)
	}
	if q := <-queries; q != "doorbells=1" || len(queries) != 0 {
		t.Fatalf("the window opened %d more watch streams after one with %q, want one with doorbells", len(queries), q)
	}
}
