// Package shim is the per-run process (`hermesdesk shim --spec <path>`,
// DESIGN.md §1): detached from main, it holds its run's lock for life,
// starts the agent through its adapter, appends the run's events to the
// journal itself, serves a control socket (controls + live event stream)
// and writes the run's one terminal event. Because it is detached, a run
// outlives a crash, an upgrade or a restart of main.
package shim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// Sentinel errors of Serve.
var (
	// ErrOwned: another shim holds the run's lock (or main is fencing it).
	ErrOwned = errors.New("shim: run is owned by another process")
	// ErrNotServable: the run is not one this shim can start (already
	// started or ended).
	ErrNotServable = errors.New("shim: run cannot be served")
	// ErrDataDirGone: the data dir disappeared; the shim gave up.
	ErrDataDirGone = errors.New("shim: data dir disappeared")
)

// maxSocketPath keeps under the smallest sun_path limit (104 on macOS).
const maxSocketPath = 100

// dataDirPoll is how often the shim checks its data dir still exists.
const dataDirPoll = time.Second

// Deps are the shim's collaborators.
type Deps struct {
	Registry    *adapter.Registry
	OpenJournal OpenJournalFunc
	Log         *slog.Logger
	// LogWriter is the run's log file: adapter diagnostics and agent stderr.
	LogWriter io.Writer
	// Stop, when closed, ends the run as interrupted (SIGTERM to the shim).
	Stop <-chan struct{}
}

// Serve runs spec's run to its end. It returns nil once the run's terminal
// event is written (or the run had already ended).
func Serve(ctx context.Context, spec control.Spec, d Deps) error {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.LogWriter == nil {
		d.LogWriter = io.Discard
	}
	if d.Registry == nil || d.OpenJournal == nil {
		return errors.New("shim: Registry and OpenJournal are required")
	}
	log := d.Log.With("run", spec.RunID)
	dir := control.RunDir(spec.DataDir, spec.RunID)
	lock, err := control.TryLock(filepath.Join(dir, control.LockFile))
	if errors.Is(err, control.ErrLocked) {
		return fmt.Errorf("run %s: %w", spec.RunID, ErrOwned)
	}
	if err != nil {
		return err
	}
	defer lock.Unlock()

	h := newHub(0)
	j, err := d.OpenJournal(spec.DBPath, h.publish)
	if err != nil {
		return fmt.Errorf("open journal: %w", err)
	}
	defer j.Close()
	rn, err := j.GetRun(ctx, spec.RunID)
	if err != nil {
		return fmt.Errorf("run %s: %w", spec.RunID, err)
	}
	if rn.Terminal || rn.Status.Terminal() {
		log.Info("run already ended; nothing to do", "status", rn.Status)
		return nil
	}
	if rn.LastSeq > 0 {
		// A previous shim wrote events and died; main fences and closes
		// such a run, a second shim must not continue it.
		return fmt.Errorf("run %s already has %d events: %w", spec.RunID, rn.LastSeq, ErrNotServable)
	}
	w, err := j.OpenWriter(ctx, spec.RunID)
	if err != nil {
		return fmt.Errorf("open writer: %w", err)
	}
	defer w.Close()

	token, err := control.NewToken()
	if err != nil {
		return err
	}
	sock, err := socketPath(spec.DataDir)
	if err != nil {
		return err
	}
	boot := control.Bootstrap{
		ProtocolVersion: control.ProtocolVersion, RunID: spec.RunID,
		Pid: os.Getpid(), StartTime: time.Now().UTC(), Socket: sock, Token: token,
	}
	var bootMu sync.Mutex
	publishBoot := func(agentPid int) {
		bootMu.Lock()
		defer bootMu.Unlock()
		boot.AgentPid = agentPid
		if err := control.WriteJSONAtomic(filepath.Join(dir, control.BootstrapFile), boot); err != nil {
			log.Error("write bootstrap", "err", err)
		}
	}
	r := newRunner(spec, j, w, h, d.Registry, log, d.LogWriter, publishBoot)
	srv, err := listen(sock, token, h, r, log)
	if err != nil {
		return err
	}
	srvCtx, stopSrv := context.WithCancel(ctx)
	defer stopSrv()
	srv.start(srvCtx)
	publishBoot(0)
	log.Info("shim serving", "pid", boot.Pid, "socket", sock, "agent", spec.Agent)

	watchDone := make(chan struct{})
	defer close(watchDone)
	go r.watch(d.Stop, watchDone)

	r.run(ctx)
	if err := w.Flush(context.WithoutCancel(ctx)); err != nil {
		log.Warn("final flush", "err", err)
	}
	// Let subscribers receive the terminal event, then say goodbye.
	h.close()
	srv.shutdown(3 * time.Second)
	if r.gone.Load() {
		return ErrDataDirGone
	}
	return nil
}

// watch ends the run when the shim is told to stop or its data dir goes
// away (a test's temp dir, an uninstall): no shim outlives its data.
func (r *runner) watch(stop <-chan struct{}, done <-chan struct{}) {
	t := time.NewTicker(dataDirPoll)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-stop:
			r.log.Warn("shim told to stop; interrupting the run")
			r.triggerShutdown()
			return
		case <-t.C:
			if _, err := os.Stat(r.spec.DataDir); errors.Is(err, os.ErrNotExist) {
				r.log.Warn("data dir disappeared; stopping")
				r.gone.Store(true)
				r.triggerShutdown()
				return
			}
		}
	}
}

func (r *runner) triggerShutdown() {
	r.shutdownOnce.Do(func() { close(r.shutdown) })
}

// socketPath picks a short random socket name in the 0700 runtime dir.
func socketPath(dataDir string) (string, error) {
	rt := paths.RuntimeDir(dataDir)
	if err := os.MkdirAll(rt, 0o700); err != nil {
		return "", fmt.Errorf("runtime dir: %w", err)
	}
	if err := os.Chmod(rt, 0o700); err != nil {
		return "", fmt.Errorf("runtime dir: %w", err)
	}
	tok, err := control.NewToken()
	if err != nil {
		return "", err
	}
	p := filepath.Join(rt, "r"+tok[:12]+".sock")
	if len(p) > maxSocketPath {
		return "", fmt.Errorf("control socket path %q is too long for a unix socket", p)
	}
	return p, nil
}
