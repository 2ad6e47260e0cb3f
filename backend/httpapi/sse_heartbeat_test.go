package httpapi_test

import (
	"net/http"
	"net/http/httptest"
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
