//go:build unix

package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/apihost"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/version"
)

// `serve --socket-only [--detach]`: the core a remote host runs for a
// desktop that reaches it over an ssh-forwarded unix socket
// (docs/ARCHITECTURE.md §Hosts). No TCP listener at all: the API is only
// the data dir's api.sock (0600 in the 0700 runtime dir, peer uid
// checked). --detach starts it in its own session, so it outlives the ssh
// session that asked, and returns once it answers, printing
// `socket=PATH`.

// envReadyFD names the pipe a detached core reports on.
const envReadyFD = "HERMESDESK_READY_FD"

// hostCoreFile records which socket-only core serves the data dir, so the
// next start knows whether it is the same version or one to hand over.
const hostCoreFile = "host-core.json"

type hostCore struct {
	PID     int    `json:"pid"`
	Version string `json:"version"`
}

func (e *Env) serveSocketOnly(dataDir string, detach bool) int {
	if detach {
		return e.detachSocketServe(dataDir)
	}
	// The pipe a --detach parent waits on: kept from the shims this core
	// starts (close-on-exec, and out of their environment).
	var ready *os.File
	if fd, err := strconv.Atoi(os.Getenv(envReadyFD)); err == nil && fd > 2 {
		syscall.CloseOnExec(fd)
		ready = os.NewFile(uintptr(fd), "ready")
		os.Unsetenv(envReadyFD)
	}
	report := func(line string) {
		if ready != nil {
			fmt.Fprintln(ready, line)
			ready.Close()
			ready = nil
			return
		}
		fmt.Fprintln(e.Stdout, line)
	}
	sock := httpapi.SocketPath(dataDir)
	old, running := readHostCore(dataDir)
	if running && old.Version == version.Version {
		report("socket=" + sock)
		return exitOK
	}
	log := slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx, cancel := context.WithCancel(e.ctx())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGUSR1)
	defer signal.Stop(sigs)
	if running {
		// An older version serves here: it hands over the way an upgrade
		// does locally — closes without retiring warm agents, releases
		// the locks and exits — and this one takes over its runs.
		log.Info("handing over from an older core", "pid", old.PID, "version", old.Version)
		_ = syscall.Kill(old.PID, syscall.SIGUSR1)
	}
	tookOver := make(chan struct{})
	api, err := apihost.Open(ctx, apihost.Options{
		DataDir: dataDir, Executable: e.Executable, Log: log,
		API:      httpapi.Config{Log: log},
		TookOver: func() { close(tookOver) },
	})
	if err != nil {
		report("error=cannot start: " + oneLine(err.Error(), 400))
		return exitFail
	}
	if !api.Supervising() {
		select {
		case <-tookOver:
		case <-sigs:
			api.Close()
			return exitOK
		case <-time.After(holderWait):
			// Another Hermes Desk (the person's own serve or app on the
			// host) supervises the data dir: its api.sock is the API. Say
			// so and leave: staying as its front would leave one idle
			// process per start.
			log.Info("another Hermes Desk supervises this data dir; using its socket")
			report("socket=" + sock)
			api.Close()
			return exitOK
		}
	}
	writeHostCore(dataDir, hostCore{PID: os.Getpid(), Version: version.Version})
	report("socket=" + sock)
	handover := false
	select {
	case s := <-sigs:
		handover = s == syscall.SIGUSR1
	case <-ctx.Done():
	}
	if handover {
		api.HandingOver()
	}
	if cur, _ := readHostCoreFile(dataDir); cur.PID == os.Getpid() {
		os.Remove(filepath.Join(dataDir, hostCoreFile))
	}
	if err := api.Close(); err != nil {
		log.Warn("close", "err", err)
	}
	return exitOK
}

// detachSocketServe starts `serve --socket-only` in its own session with
// its output in the data dir's host-core.log, and waits for its first
// line on a pipe (an event, not a poll).
func (e *Env) detachSocketServe(dataDir string) int {
	exe := e.Executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			e.errorf("cannot find this program: %v", err)
			return exitFail
		}
	}
	logPath := filepath.Join(dataDir, "host-core.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		e.errorf("cannot open %s: %v", logPath, err)
		return exitFail
	}
	defer logf.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		e.errorf("%v", err)
		return exitFail
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		e.errorf("%v", err)
		return exitFail
	}
	defer r.Close()
	cmd := exec.Command(exe, "serve", "--socket-only")
	cmd.Env = append(os.Environ(), envReadyFD+"=3")
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	w.Close()
	if err != nil {
		e.errorf("cannot start the core: %v", err)
		return exitFail
	}
	_ = cmd.Process.Release()
	line, _ := bufio.NewReader(r).ReadString('\n')
	line = strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(line, "socket="):
		fmt.Fprintln(e.Stdout, line)
		return exitOK
	case strings.HasPrefix(line, "error="):
		e.errorf("%s (log: %s)", strings.TrimPrefix(line, "error="), logPath)
	default:
		e.errorf("the core stopped before it answered; its log is %s", logPath)
	}
	return exitFail
}

// readHostCore returns the recorded socket-only core when it is still
// running (its pid is alive and is a socket-only serve).
func readHostCore(dataDir string) (hostCore, bool) {
	c, err := readHostCoreFile(dataDir)
	if err != nil || c.PID <= 0 || c.PID == os.Getpid() {
		return c, false
	}
	if syscall.Kill(c.PID, 0) != nil {
		return c, false
	}
	// A recycled pid is not ours: only signal a socket-only serve.
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", c.PID))
	if err != nil || !strings.Contains(string(cmdline), "--socket-only") {
		return c, false
	}
	return c, true
}

func readHostCoreFile(dataDir string) (hostCore, error) {
	var c hostCore
	b, err := os.ReadFile(filepath.Join(dataDir, hostCoreFile))
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, errors.New("damaged " + hostCoreFile)
	}
	return c, nil
}

func writeHostCore(dataDir string, c hostCore) {
	b, _ := json.Marshal(c)
	tmp := filepath.Join(dataDir, hostCoreFile+".tmp")
	if os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, filepath.Join(dataDir, hostCoreFile))
	}
}
