package app

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// serveLocal serves h on a socket as the core serves api.sock and returns
// the window's client of it.
func serveLocal(t *testing.T, h http.Handler) *httpapi.Client {
	t.Helper()
	dir, err := os.MkdirTemp("", "hdapi") // short: a socket path has a limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "api.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); httpapi.ServeLocal(ctx, ln, h) }()
	t.Cleanup(func() { cancel(); <-done })
	return httpapi.NewLocalClient(sock)
}

// The window reaches the core with a plain HTTP client over api.sock
// (docs/ARCHITECTURE.md §Life of one event): the webview's request arrives
// as it was sent, once, and the core's answer comes back as it is, a 502
// of the core's own included (an in-process proxy said 502 when the core
// was away, so the window took every 502 for that and asked again until
// its wait ran out).
func TestRequestPassesTheCoresAnswerOn(t *testing.T) {
	var asked atomic.Int32
	d := &Desktop{app: &App{connected: true, reconnect: make(chan struct{}), shell: &shell{}, api: serveLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		b, _ := io.ReadAll(r.Body)
		if r.Method != "POST" || r.URL.RequestURI() != "/api/sessions/s1/messages?x=1" || string(b) != `{"text":"hi"}` || r.Header.Get("Accept") != "application/json" {
			t.Errorf("the core was asked %s %s %q (Accept %q)", r.Method, r.URL.RequestURI(), b, r.Header.Get("Accept"))
		}
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, `{"error":{"code":"agent_failed","message":"the agent's gateway refused"}}`)
	}))}}
	r := d.Request("post", "/api/sessions/s1/messages?x=1", `{"text":"hi"}`)
	if r.Status != http.StatusBadGateway || r.Body != `{"error":{"code":"agent_failed","message":"the agent's gateway refused"}}` {
		t.Errorf("got %+v", r)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the core was asked %d times, want once", n)
	}
	if r := d.Request("GET", "/index.html", ""); r.Status != http.StatusNotFound {
		t.Errorf("a path outside /api/: %+v", r)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("a path outside /api/ reached the core")
	}
}
