package procio

import (
	"errors"
	"io"
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// ReadJSONLines calls fn with every line of r that looks like a JSON object,
// until r ends or fails. Oversized lines are reported to skipped (when not
// nil) and dropped; blank lines and stray non-JSON output (a CLI's banner,
// a warning on stdout) are ignored so one bad line never ends the session.
func ReadJSONLines(r io.Reader, skipped func(), fn func(line []byte)) {
	lr := NewLineReader(r)
	for {
		line, err := lr.Next()
		if errors.Is(err, ErrLineTooLong) {
			if skipped != nil {
				skipped()
			}
			continue
		}
		if err != nil {
			return
		}
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		fn(line)
	}
}

// ExitedResult is the result of a turn whose process ended before the turn
// did: a cancelled turn ends cleanly, any other one with ErrAgentExited.
// The exit code is included when the process has been reaped.
func ExitedResult(p adapter.Proc, cancelled bool) adapter.TurnResult {
	res := adapter.TurnResult{Cancelled: cancelled, StopReason: "exited"}
	if code, err := p.Wait(); err == nil {
		res.ExitCode = &code
	}
	if !cancelled {
		res.Err = adapter.ErrAgentExited
	}
	return res
}

// Waiters routes responses to the callers waiting on them, by request id.
// Safe for concurrent use: the reader delivers while callers add and drop.
type Waiters[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]chan V
}

// Add registers id and returns the channel its response will arrive on
// (buffered, so Deliver never blocks on a caller that gave up).
func (w *Waiters[K, V]) Add(id K) <-chan V {
	ch := make(chan V, 1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[K]chan V{}
	}
	w.m[id] = ch
	return ch
}

// Drop forgets id (its caller stopped waiting).
func (w *Waiters[K, V]) Drop(id K) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.m, id)
}

// Deliver hands v to id's waiter and forgets it; false when nobody waits
// for id (a late or unsolicited response).
func (w *Waiters[K, V]) Deliver(id K, v V) bool {
	w.mu.Lock()
	ch, ok := w.m[id]
	delete(w.m, id)
	w.mu.Unlock()
	if ok {
		ch <- v
	}
	return ok
}
