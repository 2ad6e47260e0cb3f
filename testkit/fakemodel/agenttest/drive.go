package agenttest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// TurnTimeout bounds one turn of a real CLI against the fake model: far
// above a normal turn, so only a hung one hits it.
const TurnTimeout = 2 * time.Minute

// Turn runs one turn of c with msg, recording into rec, and fails t if it
// has not ended within TurnTimeout.
func Turn(t testing.TB, c adapter.Conn, msg string, rec *Recorder) adapter.TurnResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), TurnTimeout)
	defer cancel()
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(ctx, adapter.TurnRequest{RunID: "r", Message: msg}, rec) }()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		t.Fatalf("turn %q did not end; events %v", msg, rec.Types())
		return adapter.TurnResult{}
	}
}

// OnFirst makes r call fn once, at the first event of type typ. fn runs on
// its own goroutine: it may call back into the adapter (Cancel), which must
// not wait on the emitting reader.
func (r *Recorder) OnFirst(typ run.EventType, fn func()) {
	var once sync.Once
	r.OnEvent = func(ev Event) {
		if ev.Type == typ {
			once.Do(func() { go fn() })
		}
	}
}

// OnApproval makes r call answer for every approval request, on its own
// goroutine for the same reason as OnFirst.
func (r *Recorder) OnApproval(answer func(run.ApprovalRequested)) {
	r.OnEvent = func(ev Event) {
		if a, ok := ev.Payload.(run.ApprovalRequested); ok {
			go answer(a)
		}
	}
}

// MkdirAll creates dirs (0755), failing t on error.
func MkdirAll(t testing.TB, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
