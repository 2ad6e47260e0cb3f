//go:build unix

package remote

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A run listed by the host and deleted before its events were read (its
// session removed there) is asked for once, not at every reconnect.
func TestGoneRunIsForgotten(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "h.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var lists, asks atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/watch", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"seq\":1,\"type\":\"snapshot\",\"snapshot\":{\"runs\":[],\"sessions_version\":1}}\n\n")
		fmt.Fprint(w, "data: {\"seq\":1,\"type\":\"goodbye\",\"reason\":\"lagging\"}\n\n")
	})
	mux.HandleFunc("GET /api/runs", func(w http.ResponseWriter, r *http.Request) {
		if lists.Add(1) == 1 {
			fmt.Fprint(w, `[{"id":"r1","session_id":"s1","status":"completed","last_seq":3,"terminal":true}]`)
			return
		}
		fmt.Fprint(w, `[]`)
	})
	mux.HandleFunc("GET /api/runs/r1/events", func(w http.ResponseWriter, r *http.Request) {
		asks.Add(1)
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"code":"not_found","message":"no such run"}}`)
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()

	snapshots := make(chan struct{}, 16)
	ctx, cancel := context.WithCancel(context.Background())
	f := New(staticLink{"h1", sock}, newMemSink(), Options{Log: quiet, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond,
		Message: func(_ string, m run.WatchMessage) {
			if m.Type == run.WatchSnapshotType {
				snapshots <- struct{}{}
			}
		}})
	done := make(chan struct{})
	go func() { f.Run(ctx); close(done) }()
	for range 3 {
		waitSignal(t, snapshots, "a snapshot")
	}
	cancel()
	<-done
	if n := asks.Load(); n != 1 {
		t.Fatalf("the gone run was asked for %d times over %d catch-ups, want once", n, lists.Load())
	}
}
