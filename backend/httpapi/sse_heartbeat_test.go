package httpapi_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// afterReturn is a ResponseWriter that counts writes and flushes made
// after the handler returned (net/http forbids them: the server reuses
// the writer's buffers).
type afterReturn struct {
	mu       sync.Mutex
	rec      *httptest.ResponseRecorder
	returned atomic.Bool
	late     atomic.Int32
}

func (w *afterReturn) Header() http.Header { return w.rec.Header() }
func (w *afterReturn) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rec.WriteHeader(code)
}
func (w *afterReturn) Write(b []byte) (int, error) {
	if w.returned.Load() {
		w.late.Add(1)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rec.Write(b)
}
func (w *afterReturn) Flush() {
	if w.returned.Load() {
		w.late.Add(1)
	}
}

// The SSE heartbeat must be finished when the handler returns; a ping
// written or flushed afterwards uses a ResponseWriter the server has
// already recycled.
func TestSSEHeartbeatStopsBeforeHandlerReturns(t *testing.T) {
	e := newEnv(t, httpapi.Config{Heartbeat: time.Microsecond})
	e.mem.AddRun("r1")
	e.mem.Append("r1", run.EventTokenDelta, text("a"))
	e.mem.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	var late int32
	for range 300 {
		req := httptest.NewRequest("GET", "http://127.0.0.1/api/runs/r1/events", nil)
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Accept", "text/event-stream")
		w := &afterReturn{rec: httptest.NewRecorder()}
		e.h.ServeHTTP(w, req)
		w.returned.Store(true)
		if w.rec.Code != 200 {
			t.Fatalf("status %d: %s", w.rec.Code, w.rec.Body)
		}
		time.Sleep(200 * time.Microsecond) // room for a straggling ping
		late += w.late.Load()
	}
	if late > 0 {
		t.Fatalf("%d writes or flushes after the handler returned", late)
	}
}

// A quiet stream to a trusted local peer (api.sock: the window, the CLI)
// sends no heartbeat, so an idle core with a window attached does not
// wake for it; a TCP client (a browser, maybe behind a proxy) still gets
// its pings. Both streams run side by side: by the time the TCP one has
// seen 20 pings, the local one would have seen some.
func TestSSEHeartbeatOnlyForTCPClients(t *testing.T) {
	e := newEnv(t, httpapi.Config{Heartbeat: time.Millisecond})
	e.mem.AddRun("r1")
	e.mem.Append("r1", run.EventTokenDelta, text("a"))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	local := &afterReturn{rec: httptest.NewRecorder()}
	served := make(chan struct{})
	go func() {
		defer close(served)
		req := httptest.NewRequest("GET", "http://hermesdesk/api/runs/r1/events", nil).
			WithContext(httpapi.WithTrusted(ctx))
		req.Header.Set("Accept", "text/event-stream")
		e.h.ServeHTTP(local, req)
	}()

	req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/runs/r1/events", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for pings := 0; pings < 20 && sc.Scan(); {
		if sc.Text() == ": ping" {
			pings++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-served
	local.mu.Lock()
	body := local.rec.Body.String()
	local.mu.Unlock()
	if !strings.Contains(body, "id: r1:1") {
		t.Fatalf("the local stream did not carry the event: %q", body)
	}
	if strings.Contains(body, ": ping") {
		t.Fatalf("the local stream got heartbeats: %q", body)
	}
}
