package core

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/core/coreapi"
)

// windows keeps at most one window process: it starts one when asked to
// show and none is attached, forwards shows to the attached one, and lets a
// hidden one retire after its grace period unless a show is on its way
// (docs/ARCHITECTURE.md §Processes).
type windows struct {
	log     *slog.Logger
	command func(l coreapi.Launch) *exec.Cmd // a fresh window process
	version string
	hello   func() coreapi.Command // the first line each window gets

	mu       sync.Mutex
	seq      int64
	att      *attached // the window listening now
	starting *exec.Cmd // started, not attached yet
	// expecting is a window pid expected to attach (left by the core this
	// one took over from).
	expecting int
	queued    []coreapi.Launch  // shows for the starting window
	procs     map[int]*exec.Cmd // children still running (reaped on exit)
	quitting  bool
}

type attached struct {
	pid int
	out chan coreapi.Command
}

func newWindows(log *slog.Logger, version string, command func(coreapi.Launch) *exec.Cmd, hello func() coreapi.Command) *windows {
	return &windows{log: log, version: version, command: command, hello: hello, procs: map[int]*exec.Cmd{}}
}

// show brings the window up with l (a folder to open, or nothing).
func (w *windows) show(l coreapi.Launch) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.quitting {
		return
	}
	switch {
	case w.att != nil:
		w.sendLocked(coreapi.Command{Op: coreapi.OpShow, Launch: &l})
	case w.starting != nil || w.expecting != 0:
		w.queued = append(w.queued, l)
	default:
		w.startLocked(l)
	}
}

// expect waits up to d for window pid (left running by the core this one
// took over from) to attach; shows meanwhile are queued for it. If it does
// not come, a window of ours takes the queued shows.
func (w *windows) expect(pid int, d time.Duration) {
	w.mu.Lock()
	w.expecting = pid
	w.mu.Unlock()
	time.AfterFunc(d, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.expecting != pid {
			return
		}
		w.expecting = 0
		if len(w.queued) > 0 && w.att == nil && w.starting == nil && !w.quitting {
			w.log.Info("the previous core's window did not reattach; starting one", "pid", pid)
			l := w.queued[len(w.queued)-1]
			w.queued = nil
			w.startLocked(l)
		}
	})
}

func (w *windows) startLocked(l coreapi.Launch) {
	cmd := w.command(l)
	err := cmd.Start()
	if f, ok := cmd.Stdout.(*os.File); ok {
		f.Close() // the child has its own copy
	}
	if err != nil {
		w.log.Error("cannot start the window process", "program", cmd.Path, "err", err)
		return
	}
	pid := cmd.Process.Pid
	w.log.Info("window process started", "pid", pid)
	w.starting = cmd
	w.procs[pid] = cmd
	go func() {
		err := cmd.Wait()
		w.log.Info("window process exited", "pid", pid, "status", exitStatus(err))
		w.mu.Lock()
		delete(w.procs, pid)
		if w.starting == cmd { // died before attaching: a later show starts another
			w.starting = nil
			w.queued = nil
		}
		w.mu.Unlock()
	}()
}

func exitStatus(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.String()
	}
	if err != nil {
		return err.Error()
	}
	return "exit status 0"
}

// sendLocked numbers c and queues it for the attached window.
func (w *windows) sendLocked(c coreapi.Command) {
	if w.att == nil {
		return
	}
	w.seq++
	c.Seq = w.seq
	select {
	case w.att.out <- c:
	default:
		w.log.Warn("window not reading its commands; one dropped", "op", c.Op)
	}
}

// broadcast sends c to the attached window, if any.
func (w *windows) broadcast(c coreapi.Command) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sendLocked(c)
}

// pid is the attached (or starting) window's pid, 0 if none.
func (w *windows) pid() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.att != nil:
		return w.att.pid
	case w.starting != nil:
		return w.starting.Process.Pid
	}
	return 0
}

// serveAttach is GET /core/window: the window's command stream, open for
// the window's whole life. A window of another version (left by a
// handover) is told to quit, and a new one of ours is started in its
// place if it was showing.
func (w *windows) serveAttach(rw http.ResponseWriter, r *http.Request) {
	pid, _ := strconv.Atoi(r.URL.Query().Get("pid"))
	if v := r.URL.Query().Get("version"); v != w.version && r.URL.Query().Get("visible") != "1" {
		// A hidden window of another build (left by a handover): nobody
		// sees it, so it goes now and the next show starts ours. A visible
		// one stays until it is hidden and retires.
		w.log.Info("a hidden window of another version attached; it is told to quit", "pid", pid, "version", v)
		writeCommands(rw, r.Context(), nil, coreapi.Command{Op: coreapi.OpQuit})
		return
	}
	a := &attached{pid: pid, out: make(chan coreapi.Command, 32)}
	w.mu.Lock()
	if w.quitting {
		w.mu.Unlock()
		writeCommands(rw, r.Context(), nil, coreapi.Command{Op: coreapi.OpQuit})
		return
	}
	if old := w.att; old != nil && old.pid != pid {
		// Two windows: the newer wins; the old one is told to go.
		w.log.Warn("a second window process attached; the first is told to quit", "old", old.pid, "new", pid)
		w.seq++
		select {
		case old.out <- coreapi.Command{Seq: w.seq, Op: coreapi.OpQuit}:
		default:
		}
		close(old.out)
	}
	w.att = a
	queued := w.queued
	switch {
	case w.starting != nil && w.starting.Process.Pid == pid:
		w.starting, w.queued = nil, nil
	case w.expecting == pid:
		w.expecting, w.queued = 0, nil
	default:
		queued = nil
	}
	hello := w.hello()
	w.seq++
	hello.Seq = w.seq
	a.out <- hello
	for _, l := range queued {
		w.sendLocked(coreapi.Command{Op: coreapi.OpShow, Launch: &l})
	}
	w.mu.Unlock()
	w.log.Info("window attached", "pid", pid)

	writeCommands(rw, r.Context(), a.out)

	w.mu.Lock()
	if w.att == a {
		w.att = nil
		w.log.Info("window detached", "pid", pid)
	}
	w.mu.Unlock()
}

// writeCommands streams cmds (then out, until it closes or ctx ends) as
// JSON lines.
func writeCommands(rw http.ResponseWriter, ctx context.Context, out <-chan coreapi.Command, cmds ...coreapi.Command) {
	rw.Header().Set("Content-Type", "application/x-ndjson")
	rw.WriteHeader(http.StatusOK)
	fl, _ := rw.(http.Flusher)
	enc := json.NewEncoder(rw)
	for _, c := range cmds {
		_ = enc.Encode(c)
	}
	if fl != nil {
		fl.Flush()
	}
	if out == nil {
		return
	}
	// No keep-alive: core.sock is local, and a window that goes ends ctx
	// (net/http reads the connection in the background), so an attached
	// idle window wakes nothing here (docs/ARCHITECTURE.md §Idle).
	for {
		select {
		case <-ctx.Done():
			return
		case c, ok := <-out:
			if !ok {
				return
			}
			if err := enc.Encode(c); err != nil {
				return
			}
			for len(out) > 0 {
				if err := enc.Encode(<-out); err != nil {
					return
				}
			}
		}
		if fl != nil {
			fl.Flush()
		}
	}
}

// retire is POST /core/window/retire: a hidden window past its grace asks
// to exit. Refused while a later command (a show) is on its way to it.
func (w *windows) retire(req coreapi.RetireRequest) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.att == nil || w.att.pid != req.Pid {
		return true // not ours to keep
	}
	if req.Seq < w.seq {
		return false
	}
	close(w.att.out)
	w.att = nil
	w.log.Info("hidden window retires after its grace period", "pid", req.Pid)
	return true
}

// quit tells the window to exit and waits (bounded) for our own child to go.
func (w *windows) quit(wait time.Duration) {
	w.mu.Lock()
	w.quitting = true
	w.sendLocked(coreapi.Command{Op: coreapi.OpQuit})
	procs := make([]*exec.Cmd, 0, len(w.procs))
	for _, c := range w.procs {
		procs = append(procs, c)
	}
	w.mu.Unlock()
	deadline := time.Now().Add(wait)
	for _, c := range procs {
		for time.Now().Before(deadline) && !w.reaped(c.Process.Pid) {
			time.Sleep(20 * time.Millisecond)
		}
		if !w.reaped(c.Process.Pid) {
			w.log.Warn("window process did not quit; killing it", "pid", c.Process.Pid)
			_ = c.Process.Signal(os.Kill)
		}
	}
}

func (w *windows) reaped(pid int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, running := w.procs[pid]
	return !running
}
