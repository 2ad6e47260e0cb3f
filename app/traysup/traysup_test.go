//go:build unix

package traysup

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/app/trayproto"
)

// The test binary doubles as the helper: TRAYSUP_HELPER selects a behaviour.
func TestMain(m *testing.M) {
	switch os.Getenv("TRAYSUP_HELPER") {
	case "echo": // answers each state with autostart=<state.autostart>, exits on EOF
		w := trayproto.NewWriter(os.Stdout)
		fmt.Println("noise that is not a message")
		trayproto.Read(os.Stdin, func(m trayproto.Msg) {
			if m.Op == trayproto.OpState {
				w.Write(trayproto.Msg{Op: trayproto.OpAutostart, Enabled: m.Autostart})
			}
		}, nil)
		os.Exit(0)
	case "deaf": // never reads stdin and ignores SIGTERM
		signal.Ignore(syscall.SIGTERM)
		w := trayproto.NewWriter(os.Stdout)
		w.Write(trayproto.Msg{Op: trayproto.OpOpen})
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helper(mode string) func() *exec.Cmd {
	return func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "TRAYSUP_HELPER="+mode)
		return cmd
	}
}

type recorder struct {
	mu   sync.Mutex
	msgs []trayproto.Msg
	pids []int
	ch   chan struct{}
}

func newRecorder() *recorder { return &recorder{ch: make(chan struct{}, 100)} }

func (r *recorder) msg(m trayproto.Msg) {
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
	r.ch <- struct{}{}
}

func (r *recorder) start(pid int) {
	r.mu.Lock()
	r.pids = append(r.pids, pid)
	r.mu.Unlock()
	r.ch <- struct{}{}
}

// waitFor polls cond on every event, failing after a generous deadline
// (a deadline, not a speed target).
func (r *recorder) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		r.mu.Lock()
		ok := cond()
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.ch:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s; msgs %+v pids %v", what, r.msgs, r.pids)
		}
	}
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func TestStateReplayedAfterRestart(t *testing.T) {
	r := newRecorder()
	s := Start(Config{Command: helper("echo"), OnMessage: r.msg, OnStart: r.start, MinBackoff: 10 * time.Millisecond})
	defer s.Stop()

	s.Send(trayproto.Msg{Op: trayproto.OpState, Autostart: true})
	r.waitFor(t, "echo of state", func() bool { return len(r.msgs) == 1 && r.msgs[0].Enabled })

	// Kill the helper: a new one starts and gets the last state again.
	first := s.PID()
	syscall.Kill(first, syscall.SIGKILL)
	r.waitFor(t, "restart", func() bool { return len(r.pids) == 2 && len(r.msgs) == 2 })
	if r.pids[1] == first || !r.msgs[1].Enabled {
		t.Fatalf("pids %v msgs %+v", r.pids, r.msgs)
	}
	// Non-state messages are not replayed; state updates still flow.
	s.Send(trayproto.Msg{Op: trayproto.OpState, Autostart: false})
	r.waitFor(t, "second state", func() bool { return len(r.msgs) == 3 && !r.msgs[2].Enabled })

	pid := s.PID()
	s.Stop()
	if alive(pid) {
		// Stop waits for the helper, so it has been reaped and is gone.
		t.Fatalf("helper %d alive after Stop", pid)
	}
	if s.PID() != 0 {
		t.Fatal("PID not cleared")
	}
}

func TestStopKillsHelperThatIgnoresEOF(t *testing.T) {
	r := newRecorder()
	s := Start(Config{Command: helper("deaf"), OnMessage: r.msg, OnStart: r.start, StopGrace: 100 * time.Millisecond})
	r.waitFor(t, "open from deaf helper", func() bool { return len(r.msgs) == 1 })
	pid := s.PID()
	s.Stop()
	if alive(pid) {
		t.Fatalf("deaf helper %d survived Stop", pid)
	}
}

func TestBackoffGrowsWhileHelperKeepsFailing(t *testing.T) {
	r := newRecorder()
	var starts []time.Time
	s := Start(Config{
		Command: func() *exec.Cmd { return exec.Command("false") },
		OnStart: func(int) {
			r.mu.Lock()
			starts = append(starts, time.Now())
			r.mu.Unlock()
			r.ch <- struct{}{}
		},
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 80 * time.Millisecond,
	})
	r.waitFor(t, "five starts", func() bool { return len(starts) >= 5 })
	s.Stop()
	// Gaps can only be longer than the backoff, never shorter: 20, 40, 80, 80.
	want := []time.Duration{20, 40, 80, 80}
	for i, w := range want {
		if gap := starts[i+1].Sub(starts[i]); gap < w*time.Millisecond {
			t.Errorf("gap %d = %v, want >= %vms", i, gap, w)
		}
	}
}

func TestSendWithoutHelperDoesNotBlock(t *testing.T) {
	s := Start(Config{Command: func() *exec.Cmd { return exec.Command("/nonexistent/helper") }, MinBackoff: time.Hour})
	for i := 0; i < 100; i++ {
		s.Send(trayproto.Msg{Op: trayproto.OpState, Running: i})
	}
	s.Stop()
}
