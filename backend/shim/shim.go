// Package shim is the per-run process (`hermesdesk shim --spec <path>`,
// docs/ARCHITECTURE.md §Processes): detached from main, it holds its run's lock while it
// serves it, starts the agent through its adapter, appends the run's
// events to the journal itself, serves a control socket (controls + live
// event stream) and writes the run's one terminal event. Because it is
// detached, a run outlives a crash, an upgrade or a restart of main.
//
// After a run that completed normally the shim may stay warm: agent alive,
// waiting (idle timeout) for its session's next run, which a supervisor
// hands it with control.OpNextRun (warm.go).
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
	"github.com/hermesdesk/hermesdesk/backend/dirwatch"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/run"
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

// Deps are the shim's collaborators.
type Deps struct {
	Registry    *adapter.Registry
	OpenJournal OpenJournalFunc
	Log         *slog.Logger
	// LogWriter is the run's log file: adapter diagnostics and agent stderr.
	LogWriter io.Writer
	// Stop, when closed, ends the run as interrupted (SIGTERM to the shim).
	Stop <-chan struct{}
	// OnRun is told when a warm shim takes on a next run, before it
	// publishes the run's bootstrap (main points the log at the run's dir).
	OnRun func(spec control.Spec)
}

// Serve runs spec's run to its end and, when the agent stays fit for
// another turn, serves its session's next runs on the same agent while
// they come within the idle timeout (a warm shim). It returns nil once
// the last run's terminal event is written (or the run had already ended).
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
	sh := newShim(spec, d)
	j, err := d.OpenJournal(spec.DBPath, sh.publish)
	if err != nil {
		return fmt.Errorf("open journal: %w", err)
	}
	defer j.Close()
	sh.j = j
	sl, err := sh.open(ctx, spec)
	if errors.Is(err, ErrRunTerminal) {
		sh.log.Info("run already ended; nothing to do", "run", spec.RunID)
		return nil
	}
	if err != nil {
		return err
	}
	if sh.token, err = control.NewToken(); err != nil {
		sl.release()
		return err
	}
	if sh.sock, err = socketPath(spec.DataDir); err != nil {
		sl.release()
		return err
	}
	srv, err := listen(sh.sock, sh.token, sh.hubFor, sh, sh.log)
	if err != nil {
		sl.release()
		return err
	}
	srvCtx, stopSrv := context.WithCancel(ctx)
	defer stopSrv()
	srv.start(srvCtx)
	// Last out: subscribers of the last run receive its terminal event.
	defer srv.shutdown(3 * time.Second)
	defer sh.exit()

	watchDone := make(chan struct{})
	defer close(watchDone)
	go sh.watch(d.Stop, watchDone)

	r, _ := sh.prepare(sl, nil)
	sh.log.Info("shim serving", "pid", os.Getpid(), "socket", sh.sock, "agent", spec.Agent, "run", spec.RunID)
	for {
		conn := sh.serveRun(ctx, r, sl)
		if conn == nil {
			break
		}
		sh.setConn(conn, r.agentPidNow())
		if r, sl = sh.idle(ctx); r == nil {
			break
		}
	}
	if sh.gone.Load() {
		return ErrDataDirGone
	}
	return nil
}

// slot is a run the shim has taken on: its lock, writer and hub.
type slot struct {
	spec control.Spec
	lock *control.Lock
	w    run.Writer
	h    *hub
	// resumed: the run was parked on a rate limit and continues now,
	// after parkAttempts parks (docs/ARCHITECTURE.md §Usage, parked runs).
	resumed      bool
	parkAttempts int
}

func (sl *slot) release() {
	if sl.w != nil {
		sl.w.Close()
	}
	sl.lock.Unlock()
}

// open takes spec's run: its lock (held while the shim serves it), a
// check that nobody served it before, and its journal writer.
func (sh *shim) open(ctx context.Context, spec control.Spec) (*slot, error) {
	lock, err := takeRunLock(filepath.Join(control.RunDir(spec.DataDir, spec.RunID), control.LockFile))
	if errors.Is(err, control.ErrLocked) {
		return nil, fmt.Errorf("run %s: %w", spec.RunID, ErrOwned)
	}
	if err != nil {
		return nil, err
	}
	sl := &slot{spec: spec, lock: lock, h: newHub(0)}
	rn, err := sh.j.GetRun(ctx, spec.RunID)
	switch {
	case err != nil:
		err = fmt.Errorf("run %s: %w", spec.RunID, err)
	case rn.Terminal || rn.Status.Terminal():
		err = ErrRunTerminal
	case rn.Status == run.StatusParked:
		// Parked on a rate limit and resumed: its earlier shim ended it
		// so on purpose, this one continues it (docs/ARCHITECTURE.md
		// §Usage, parked runs).
		sl.resumed, sl.parkAttempts = true, rn.ParkAttempts
	case rn.LastSeq > 0:
		// A previous shim wrote events and died; main fences and closes
		// such a run, a second shim must not continue it.
		err = fmt.Errorf("run %s already has %d events: %w", spec.RunID, rn.LastSeq, ErrNotServable)
	}
	if err == nil {
		if sl.w, err = sh.j.OpenWriter(ctx, spec.RunID); err != nil {
			err = fmt.Errorf("open writer: %w", err)
		}
	}
	if err != nil {
		sl.release()
		return nil, err
	}
	return sl, nil
}

// lockSettle is how long a shim keeps trying a run lock that is held
// before it concludes another shim owns the run. A free lock looks held
// for a moment when the supervisor's process forked a child while it had
// the lock file open (the child shares the lock until it execs); a shim
// that really owns the run holds it for the run's whole life.
const lockSettle = 250 * time.Millisecond

func takeRunLock(path string) (*control.Lock, error) {
	deadline := time.Now().Add(lockSettle)
	for {
		lock, err := control.TryLock(path)
		if !errors.Is(err, control.ErrLocked) || time.Now().After(deadline) {
			return lock, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// prepare makes sl's runner the current one and publishes the run's
// bootstrap, which it returns; conn is a warm agent connection (nil: start
// the agent).
func (sh *shim) prepare(sl *slot, conn adapter.Conn) (*runner, control.Bootstrap) {
	spec := sl.spec
	dir := control.RunDir(spec.DataDir, spec.RunID)
	boot := control.Bootstrap{
		ProtocolVersion: control.ProtocolVersion, RunID: spec.RunID,
		Pid: os.Getpid(), StartTime: time.Now().UTC(), Socket: sh.sock, Token: sh.token,
	}
	var bootMu sync.Mutex
	publishBoot := func(agentPid int) {
		bootMu.Lock()
		defer bootMu.Unlock()
		boot.AgentPid = agentPid
		if err := control.WriteJSONAtomic(filepath.Join(dir, control.BootstrapFile), boot); err != nil {
			sh.log.Error("write bootstrap", "run", spec.RunID, "err", err)
		}
	}
	log := sh.log.With("run", spec.RunID)
	r := newRunner(spec, sh.j, sl.w, sl.h, sh.d.Registry, log, sh.d.LogWriter, publishBoot)
	r.resumed, r.parkAttempts = sl.resumed, sl.parkAttempts
	r.shutdown, r.shutdownOnce, r.gone = sh.shutdown, &sh.shutdownOnce, &sh.gone
	r.beforeStart = sh.claimSession
	r.warmUp = sh.warmUp
	agentPid := 0
	if conn != nil {
		r.warm = conn
		agentPid = sh.agentPid
		r.agentPid = agentPid
	}
	sh.mu.Lock()
	sh.cur, sh.curHub = r, sl.h
	sh.mu.Unlock()
	publishBoot(agentPid)
	bootMu.Lock()
	defer bootMu.Unlock()
	return r, boot
}

// serveRun plays r's run to its end and lets the run go; it returns the
// agent connection if the shim keeps it warm.
func (sh *shim) serveRun(ctx context.Context, r *runner, sl *slot) adapter.Conn {
	conn := r.run(ctx)
	if err := sl.w.Flush(context.WithoutCancel(ctx)); err != nil {
		sh.log.Warn("final flush", "run", sl.spec.RunID, "err", err)
	}
	// Let subscribers receive the terminal event; they end there.
	sl.h.close()
	sl.release()
	if r.isParked() {
		return nil // its spec starts it again when the quota resets
	}
	if err := control.RemoveSpec(sl.spec.DataDir, sl.spec.RunID); err != nil {
		sh.log.Warn("the ended run's spec stays", "run", sl.spec.RunID, "err", err)
	}
	return conn
}

// watch ends the shim when it is told to stop or its data dir goes away
// (a test's temp dir, an uninstall): no shim outlives its data. The data dir
// is watched, not polled: an idle warm shim sleeps (docs/ARCHITECTURE.md
// §Idle).
func (sh *shim) watch(stop <-chan struct{}, done <-chan struct{}) {
	gone, unwatch, err := dirwatch.Gone(sh.dataDir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			sh.dataDirGone()
			return
		}
		// No watch to be had (inotify instances exhausted): the shim still
		// ends on a stop or when its runs end; it only may outlive a
		// deleted data dir.
		sh.log.Warn("cannot watch the data dir; the shim will not notice it going away", "err", err)
	} else {
		defer unwatch()
	}
	select {
	case <-done:
	case <-stop:
		sh.log.Warn("shim told to stop; interrupting the run")
		sh.triggerShutdown()
	case <-gone:
		sh.dataDirGone()
	}
}

func (sh *shim) dataDirGone() {
	sh.log.Warn("data dir disappeared; stopping")
	sh.gone.Store(true)
	sh.triggerShutdown()
}

func (sh *shim) triggerShutdown() {
	sh.shutdownOnce.Do(func() { close(sh.shutdown) })
}

func (r *runner) triggerShutdown() {
	r.shutdownOnce.Do(func() { close(r.shutdown) })
}

func (r *runner) agentPidNow() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.agentPid
}

// socketPath picks a short random socket name in the 0700 runtime dir.
func socketPath(dataDir string) (string, error) {
	rt := paths.RuntimeDir(dataDir)
	if err := paths.EnsureRuntimeDir(rt); err != nil {
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
