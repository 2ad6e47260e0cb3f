// Package traysup keeps the tray helper process alive: it starts it, feeds it
// the latest state, hands its messages to the app, and restarts it with
// backoff when it dies. The helper exits when the app goes away: its stdin
// closes and, on Linux, it gets a parent-death signal.
package traysup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/app/trayproto"
)

// Config says how to run the helper.
type Config struct {
	// Command returns a fresh, unstarted command for each start.
	Command func() *exec.Cmd
	// OnMessage gets every message from the helper, on one goroutine.
	OnMessage func(trayproto.Msg)
	// OnStart is told each helper's pid (tests and logs use it). Optional.
	OnStart func(pid int)
	Log     *slog.Logger
	// Backoff between restarts doubles from MinBackoff to MaxBackoff and
	// resets once a helper has lived StableAfter.
	MinBackoff, MaxBackoff, StableAfter time.Duration
	// StopGrace is how long Stop waits for the helper to leave after its
	// stdin closes before killing it.
	StopGrace time.Duration
}

func (c *Config) defaults() {
	if c.MinBackoff <= 0 {
		c.MinBackoff = 200 * time.Millisecond
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 30 * time.Second
	}
	if c.StableAfter <= 0 {
		c.StableAfter = 10 * time.Second
	}
	if c.StopGrace <= 0 {
		c.StopGrace = 2 * time.Second
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.OnMessage == nil {
		c.OnMessage = func(trayproto.Msg) {}
	}
}

// Supervisor runs one helper at a time.
type Supervisor struct {
	cfg    Config
	cancel context.CancelFunc
	done   chan struct{}

	mu    sync.Mutex
	state *trayproto.Msg     // last state, replayed to each new helper
	out   chan trayproto.Msg // to the current helper's writer; nil between helpers
	pid   int
}

// Start launches the helper and keeps it running until Stop.
func Start(cfg Config) *Supervisor {
	cfg.defaults()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Supervisor{cfg: cfg, cancel: cancel, done: make(chan struct{})}
	go s.loop(ctx)
	return s
}

// Send delivers m to the helper. A state message is also remembered and
// replayed after a restart. Never blocks: a helper too slow to read a few
// tiny lines loses the oldest ones, and the next state supersedes them.
func (s *Supervisor) Send(m trayproto.Msg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.Op == trayproto.OpState {
		s.state = &m
	}
	if s.out == nil {
		return
	}
	select {
	case s.out <- m:
	default:
		s.cfg.Log.Warn("tray helper not reading; message dropped", "op", m.Op)
	}
}

// PID is the current helper's pid, 0 between helpers.
func (s *Supervisor) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pid
}

// Stop ends the helper (stdin EOF, then a kill after StopGrace) and the
// restart loop, and waits for both.
func (s *Supervisor) Stop() {
	s.cancel()
	<-s.done
}

func (s *Supervisor) loop(ctx context.Context) {
	defer close(s.done)
	// Linux delivers the parent-death signal when the *thread* that forked
	// the child exits. Pin this goroutine to its thread so Go never retires
	// that thread while a helper it started is alive.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	backoff := s.cfg.MinBackoff
	for {
		started := time.Now()
		err := s.runOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		if time.Since(started) >= s.cfg.StableAfter {
			backoff = s.cfg.MinBackoff
		}
		s.cfg.Log.Warn("tray helper exited; restarting", "err", err, "after", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, s.cfg.MaxBackoff)
	}
}

// runOnce starts one helper and returns when it has exited.
func (s *Supervisor) runOnce(ctx context.Context) error {
	cmd := s.cfg.Command()
	setParentDeathSignal(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("tray helper: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("tray helper: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("tray helper: start: %w", err)
	}
	pid := cmd.Process.Pid
	s.cfg.Log.Info("tray helper started", "pid", pid)
	if s.cfg.OnStart != nil {
		s.cfg.OnStart(pid)
	}

	out := make(chan trayproto.Msg, 16)
	s.mu.Lock()
	s.pid, s.out = pid, out
	if s.state != nil {
		out <- *s.state
	}
	s.mu.Unlock()

	writerDone := make(chan struct{})
	go func() { // the writer owns stdin: closing it is the helper's cue to exit
		defer close(writerDone)
		defer stdin.Close()
		w := trayproto.NewWriter(stdin)
		for {
			select {
			case <-ctx.Done():
				return
			case m, ok := <-out:
				if !ok {
					return
				}
				if err := w.Write(m); err != nil {
					return
				}
			}
		}
	}()
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		err := trayproto.Read(stdout, s.cfg.OnMessage, func(line []byte, err error) {
			s.cfg.Log.Debug("tray helper: unreadable line", "line", string(line), "err", err)
		})
		if err != nil && !errors.Is(err, io.ErrClosedPipe) {
			s.cfg.Log.Debug("tray helper: read", "err", err)
		}
	}()

	waited := make(chan error, 1)
	go func() {
		<-readDone // Wait closes stdout; read it to the end first
		waited <- cmd.Wait()
	}()
	select {
	case err = <-waited:
	case <-ctx.Done():
		select {
		case err = <-waited:
		case <-time.After(s.cfg.StopGrace):
			s.cfg.Log.Warn("tray helper ignored stdin EOF; killing", "pid", pid)
			_ = cmd.Process.Kill()
			err = <-waited
		}
	}
	s.mu.Lock()
	s.pid, s.out = 0, nil
	s.mu.Unlock()
	close(out)
	<-writerDone
	return err
}
