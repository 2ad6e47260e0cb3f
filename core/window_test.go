package core

import (
	"io"
	"log/slog"
	"os/exec"
	"testing"

	"github.com/hermesdesk/hermesdesk/core/coreapi"
)

// TestRetire: a hidden window may retire only when it has acted on every
// command the core sent it; another process's retire is not ours to keep.
func TestRetire(t *testing.T) {
	tests := []struct {
		name       string
		sent       int // commands sent after hello
		ackSeq     int64
		pid        int
		want       bool
		wantDetach bool
	}{
		{"acted on everything", 1, 2, 7, true, true},
		{"a show on its way", 1, 1, 7, false, false},
		{"another pid", 1, 1, 8, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWindows(slog.New(slog.NewTextHandler(io.Discard, nil)), "1.0.0",
				func(coreapi.Launch) *exec.Cmd { t.Fatal("no window should start"); return nil },
				func() coreapi.Command { return coreapi.Command{Op: coreapi.OpHello} })
			a := &attached{pid: 7, out: make(chan coreapi.Command, 8)}
			w.att = a
			w.sendLocked(coreapi.Command{Op: coreapi.OpHello})
			for i := 0; i < tt.sent; i++ {
				w.show(coreapi.Launch{})
			}
			if got := w.retire(coreapi.RetireRequest{Pid: tt.pid, Seq: tt.ackSeq}); got != tt.want {
				t.Fatalf("retire = %v", got)
			}
			if detached := w.att == nil; detached != tt.wantDetach {
				t.Fatalf("detached = %v", detached)
			}
		})
	}
}

// TestShowQueuesForAStartingOrExpectedWindow: shows while a window is on
// its way are kept for it, not answered with a second window.
func TestShowQueuesForAnExpectedWindow(t *testing.T) {
	started := 0
	w := newWindows(slog.New(slog.NewTextHandler(io.Discard, nil)), "1.0.0",
		func(coreapi.Launch) *exec.Cmd { started++; return exec.Command("true") },
		func() coreapi.Command { return coreapi.Command{Op: coreapi.OpHello} })
	w.expecting = 42
	w.show(coreapi.Launch{Args: []string{"/p"}})
	if started != 0 || len(w.queued) != 1 {
		t.Fatalf("started %d, queued %v", started, w.queued)
	}
}

func TestLaunchFolder(t *testing.T) {
	tests := []struct {
		l    coreapi.Launch
		want string
	}{
		{coreapi.Launch{}, ""},
		{coreapi.Launch{Args: []string{"--flag"}}, ""},
		{coreapi.Launch{Args: []string{"/abs/p/"}}, "/abs/p"},
		{coreapi.Launch{Args: []string{"rel"}, Cwd: "/home/x"}, "/home/x/rel"},
		{coreapi.Launch{Args: []string{"rel"}}, ""},
		{coreapi.Launch{Args: []string{".", "other"}, Cwd: "/w"}, "/w"},
	}
	for _, tt := range tests {
		if got := launchFolder(tt.l); got != tt.want {
			t.Errorf("launchFolder(%+v) = %q, want %q", tt.l, got, tt.want)
		}
	}
}
