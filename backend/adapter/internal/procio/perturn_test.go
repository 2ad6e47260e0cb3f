package procio

import (
	"errors"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// pidProc is an adapter.Proc with a fixed pid.
type pidProc struct {
	adapter.Proc
	pid int
}

func (p pidProc) Pid() int { return p.pid }

func TestPerTurn(t *testing.T) {
	var s PerTurn
	if _, err := s.Cancel(); !errors.Is(err, adapter.ErrNotPending) {
		t.Fatalf("cancel between turns: %v", err)
	}
	launchErr := errors.New("no such program")
	if _, err := s.Launch(func() (adapter.Proc, error) { return nil, launchErr }); !errors.Is(err, launchErr) || s.Pid() != 0 {
		t.Fatalf("failed launch: %v, pid %d", err, s.Pid())
	}
	p := pidProc{pid: 42}
	if _, err := s.Launch(func() (adapter.Proc, error) { return p, nil }); err != nil || s.Pid() != 42 {
		t.Fatalf("launch: %v, pid %d", err, s.Pid())
	}
	if _, err := s.Launch(func() (adapter.Proc, error) { t.Fatal("launched twice"); return nil, nil }); !errors.Is(err, adapter.ErrBusy) {
		t.Fatalf("second turn: %v", err)
	}
	if got, err := s.Cancel(); err != nil || got != p {
		t.Fatalf("cancel: %v %v", got, err)
	}
	if !s.Finish() || s.Pid() != 0 {
		t.Fatal("the cancelled turn was not reported cancelled")
	}
	// A new turn starts uncancelled.
	if _, err := s.Launch(func() (adapter.Proc, error) { return p, nil }); err != nil {
		t.Fatal(err)
	}
	if got := s.Close(); got != p {
		t.Fatalf("close returned %v", got)
	}
	if s.Finish() {
		t.Fatal("an uncancelled turn was reported cancelled")
	}
	if _, err := s.Launch(func() (adapter.Proc, error) { return p, nil }); !errors.Is(err, adapter.ErrAgentExited) {
		t.Fatalf("turn after close: %v", err)
	}
	if s.Close() != nil {
		t.Fatal("close between turns returned a process")
	}
}
