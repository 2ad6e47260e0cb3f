package httpapi_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// Doorbells are coalesced once, by the bus's owner, per watcher: a proxy
// passes on every doorbell of the owner's /api/watch?doorbells=1 as it
// comes, even three of one run within one frame (docs/ARCHITECTURE.md
// §Life of one event).
func TestProxyDoorbellsAreNotCoalescedAgain(t *testing.T) {
	dir, err := os.MkdirTemp("", "hdring")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, httpapi.SocketName)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	queries := make(chan string, 8)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/watch" {
			http.NotFound(w, r)
			return
		}
		queries <- r.URL.RawQuery
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"seq\":1,\"type\":\"snapshot\",\"snapshot\":{\"runs\":[]}}\n\n")
		for seq := 3; seq <= 5; seq++ {
			fmt.Fprintf(w, "data: {\"seq\":1,\"type\":\"doorbell\",\"run\":{\"run_id\":\"r1\",\"last_seq\":%d}}\n\n", seq)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

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
