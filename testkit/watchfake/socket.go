package watchfake

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// Socket is a core's api.sock for the tests of what follows it over
// HTTP (the window process, a proxy): every GET /api/watch is answered
// with messages (JSON lines, as server-sent events) and then held open.
// It returns the socket's path and the query of each watch request.
func Socket(t testing.TB, messages ...string) (sock string, queries <-chan string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "hdwatch") // short: a socket's path is limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock = filepath.Join(dir, "api.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	q := make(chan string, 16)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/watch" {
			http.NotFound(w, r)
			return
		}
		select {
		case q <- r.URL.RawQuery:
		default:
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, m := range messages {
			fmt.Fprintf(w, "data: %s\n\n", m)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return sock, q
}
