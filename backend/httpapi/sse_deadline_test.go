package httpapi

import (
	"net/http/httptest"
	"testing"
	"time"
)

// deadlineRecorder records the write deadlines a handler sets.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadlines []time.Time
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.deadlines = append(d.deadlines, t)
	return nil
}

// A flush to an SSE client is bounded by a write deadline, which is lifted
// once the flush is done: a deadline left armed is a runtime timer that
// woke an idle core 30 s after a quiet stream's last message
// (docs/ARCHITECTURE.md §Idle).
func TestSSEFlushLiftsItsDeadline(t *testing.T) {
	w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	s := startSSE(w)
	s.writeRaw(": hello\n\n")
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	if len(w.deadlines) != 2 || w.deadlines[0].IsZero() || !w.deadlines[1].IsZero() {
		t.Fatalf("write deadlines %v: want one for the flush, then none", w.deadlines)
	}
	if w.Body.String() != "retry: 1000\n\n: hello\n\n" {
		t.Errorf("wrote %q", w.Body.String())
	}
}
