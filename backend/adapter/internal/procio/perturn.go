package procio

import (
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// PerTurn tracks the running turn's process for adapters that start one
// process per turn (any command line, Hermes one-shot chat): at most one at
// a time, whether the turn was cancelled, and whether the conn is closed.
// The zero value is ready to use.
type PerTurn struct {
	mu        sync.Mutex
	proc      adapter.Proc
	cancelled bool
	closed    bool
}

// Launch starts the turn's process with launch, unless a turn is running
// (adapter.ErrBusy) or the conn is closed (adapter.ErrAgentExited); launch's
// own error is returned as is. launch runs under the lock, so a Cancel that
// comes right after Launch always finds the process.
func (s *PerTurn) Launch(launch func() (adapter.Proc, error)) (adapter.Proc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil {
		return nil, adapter.ErrBusy
	}
	if s.closed {
		return nil, adapter.ErrAgentExited
	}
	p, err := launch()
	if err != nil {
		return nil, err
	}
	s.proc, s.cancelled = p, false
	return p, nil
}

// Finish forgets the turn's process (call it once the process is reaped)
// and reports whether the turn was cancelled.
func (s *PerTurn) Finish() (cancelled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.proc = nil
	return s.cancelled
}

// Pid is the running turn's process id; 0 between turns.
func (s *PerTurn) Pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return 0
	}
	return s.proc.Pid()
}

// Cancel marks the running turn cancelled and returns its process for the
// caller to stop; adapter.ErrNotPending between turns.
func (s *PerTurn) Cancel() (adapter.Proc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return nil, adapter.ErrNotPending
	}
	s.cancelled = true
	return s.proc, nil
}

// Close refuses later turns and returns the running turn's process, if any,
// for the caller to stop.
func (s *PerTurn) Close() adapter.Proc {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return s.proc
}
