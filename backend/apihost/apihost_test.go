package apihost

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
)

// A host beside a running supervisor (serve, or the core) follows its watch
// bus through the local socket; when that one goes away the host takes
// over as supervisor (woken by the broken bus, not by a timer) and its bus
// goes on from its own service. Processes on both sides: backend/cli's
// TestServeTakesOverFromCore.
func TestBusAcrossTakeOver(t *testing.T) {
	dataDir, err := os.MkdirTemp("", "hd-bus-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dataDir) })
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(dataDir, "rt"))
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// "serve": the data dir's supervisor with its local socket.
	st, err := stack.Open(ctx, stack.Options{DataDir: dataDir, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	stopLocal, err := httpapi.StartLocal(ctx, dataDir, httpapi.New(st.Service, httpapi.Config{Log: quiet}))
	if err != nil {
		t.Fatal(err)
	}

	// The tray model's count of active runs, folded from what the backend
	// hands the core.
	running := make(chan int, 256)
	fold := traystate.New()
	took := make(chan struct{})
	b, err := Open(ctx, Options{DataDir: dataDir, Log: quiet, API: httpapi.Config{Token: "first", Log: quiet}, Watch: func(m run.WatchMessage) {
		if fold.Apply(m) {
			running <- len(fold.Runs())
		}
	}, TookOver: func() { close(took) }})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// What the window sees: the bus of whatever serves b's API, followed
	// again after a goodbye.
	msgs := make(chan run.WatchMessage, 256)
	go func() {
		for ctx.Err() == nil {
			if ch, err := b.Handler().Watch(ctx); err == nil {
				for m := range ch {
					msgs <- m
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	select {
	case n := <-running:
		if n != 0 {
			t.Fatalf("running count %d, want 0", n)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no running count from the bus")
	}
	wait := func(what string, ok func(run.WatchMessage) bool) {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case m := <-msgs:
				if ok(m) {
					return
				}
			case <-timeout:
				t.Fatalf("no %s on the app's bus", what)
			}
		}
	}
	wait("snapshot from serve", func(m run.WatchMessage) bool { return m.Type == run.WatchSnapshotType })
	if status, body := b.Handler().Do("POST", "/api/projects", `{"workspace":"`+dataDir+`"}`); status != 201 {
		t.Fatalf("create project through serve: %d %s", status, body)
	}
	wait("project change from serve", func(m run.WatchMessage) bool { return m.Type == run.WatchSessionChanged })

	// A token replaced while proxying holds after the take-over too.
	b.SetToken("second")
	if got := tcpStatus(b, "second"); got != http.StatusOK {
		t.Fatalf("new token through the proxy: %d", got)
	}

	// serve goes away.
	stopLocal()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	wait("goodbye", func(m run.WatchMessage) bool { return m.Type == run.WatchGoodbye })
	wait("snapshot after taking over", func(m run.WatchMessage) bool { return m.Type == run.WatchSnapshotType })
	select {
	case <-took:
	case <-time.After(20 * time.Second):
		t.Fatal("TookOver was not called")
	}
	if !b.Supervising() {
		t.Fatal("the host did not become the supervisor")
	}
	status, body := b.Handler().Do("POST", "/api/sessions", `{"project_id":"x","agent":"demo"}`)
	if status == 200 || !strings.Contains(body, "project") {
		t.Fatalf("the app's own service answers: %d %s", status, body)
	}
	if status, body := b.Handler().Do("POST", "/api/projects", `{"name":"second","workspace":"`+t.TempDir()+`"}`); status != 201 {
		t.Fatalf("create project after take-over: %d %s", status, body)
	}
	wait("project change from the app's own bus", func(m run.WatchMessage) bool { return m.Type == run.WatchSessionChanged })
	for tok, want := range map[string]int{"second": http.StatusOK, "first": http.StatusUnauthorized} {
		if got := tcpStatus(b, tok); got != want {
			t.Fatalf("token %q after take-over: %d, want %d", tok, got, want)
		}
	}
}

// tcpStatus is the status of GET /api/projects as a TCP client with tok
// would get it from h.
func tcpStatus(h http.Handler, tok string) int {
	req := httptest.NewRequest("GET", "http://127.0.0.1:8765/api/projects", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}
