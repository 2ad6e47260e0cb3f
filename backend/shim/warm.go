package shim

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// How long a starting shim waits for the session's previous agent to go
// (a warm shim closing it) and how often it looks.
const (
	sessionClaimTimeout = 15 * time.Second
	sessionClaimPoll    = 10 * time.Millisecond
	stopCallTimeout     = 2 * time.Second
)

// errSessionBusy: another shim still holds the session's agent.
var errSessionBusy = errors.New("another run of this conversation still holds the agent")

// shim is one shim process: the runs it serves in turn (one at a time, all
// of one session) and, between them, its warm agent.
type shim struct {
	d         Deps
	log       *slog.Logger
	dataDir   string
	sessionID string
	j         Journal
	sock      string
	token     string

	shutdown     chan struct{} // closed when the shim must stop (signal, data dir gone)
	shutdownOnce sync.Once
	gone         atomic.Bool

	mu       sync.Mutex
	cur      *runner // the current (or last) run
	curHub   *hub
	warm     *warmState   // set while idle and warm
	conn     adapter.Conn // the warm agent between runs
	agentPid int
	sesLock  *control.Lock // held from the first agent start to exit
}

var _ controller = (*shim)(nil)

func newShim(spec control.Spec, d Deps) *shim {
	return &shim{d: d, log: d.Log, dataDir: spec.DataDir, sessionID: spec.SessionID, shutdown: make(chan struct{})}
}

// publish is the journal's commit callback: events go to their run's hub.
func (sh *shim) publish(evs []run.Event) {
	if len(evs) == 0 {
		return
	}
	if h := sh.hubFor(evs[0].RunID); h != nil {
		h.publish(evs)
	}
}

func (sh *shim) hubFor(runID string) *hub {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.cur == nil || runID != "" && runID != sh.cur.spec.RunID {
		return nil
	}
	return sh.curHub
}

// handle routes a control request: warm ops to the shim, the others to the
// run they name (an earlier run of this shim has ended).
func (sh *shim) handle(ctx context.Context, req control.Request) control.Response {
	switch req.Op {
	case control.OpNextRun:
		return sh.nextRun(req)
	case control.OpStop:
		if w := sh.warmNow(); w != nil && w.end("asked to stop") {
			res := result(run.ControlAccepted, "the warm agent is closing")
			return control.Response{Result: &res}
		}
		return control.Response{Code: control.CodeNotWarm, Error: "the shim is serving a run"}
	}
	sh.mu.Lock()
	r := sh.cur
	sh.mu.Unlock()
	if r == nil || req.RunID != "" && req.RunID != r.spec.RunID {
		if req.Op == control.OpStatus {
			return control.Response{Code: control.CodeEnded, Error: "run ended"}
		}
		res := result(run.ControlNotActive, "the run has already ended")
		return control.Response{Result: &res}
	}
	return r.handle(ctx, req)
}

func (sh *shim) warmNow() *warmState {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.warm
}

// nextRun hands the idle loop a next run and answers with its bootstrap
// once the shim serves it, or refuses it (the caller starts a fresh shim).
func (sh *shim) nextRun(req control.Request) control.Response {
	if req.Spec == nil {
		return control.Response{Code: control.CodeBadRequest, Error: "next_run without a spec"}
	}
	w := sh.warmNow()
	if w == nil {
		return control.Response{Code: control.CodeNotWarm, Error: "the shim is serving a run"}
	}
	if err := w.take(*req.Spec); err != nil {
		return control.Response{Code: control.CodeNotWarm, Error: err.Error()}
	}
	reply := make(chan handoffReply, 1)
	w.handoff <- handoff{spec: *req.Spec, reply: reply}
	var rep handoffReply
	select {
	case rep = <-reply: // the idle loop answers every handoff it gets
	case <-w.abandoned:
		rep.err = errors.New("the shim is exiting")
	}
	if rep.err != nil {
		return control.Response{Code: control.CodeNotWarm, Error: rep.err.Error()}
	}
	return control.Response{Bootstrap: &rep.boot}
}

// warmUp is asked by a run about to end well whether the shim keeps its
// agent: it opens the warm state and publishes the warm record.
func (sh *shim) warmUp(r *runner) bool {
	d := r.spec.WarmIdle()
	sh.mu.Lock()
	held := sh.sesLock != nil
	sh.mu.Unlock()
	if d <= 0 || !held {
		return false
	}
	exe, _ := os.Executable()
	now := time.Now().UTC()
	rec := control.Warm{
		ProtocolVersion: control.ProtocolVersion, Binary: filepath.Base(exe),
		SessionID: sh.sessionID, Agent: r.spec.Agent, Fingerprint: control.Fingerprint(r.spec),
		Pid: os.Getpid(), AgentPid: r.agentPidNow(), Socket: sh.sock, Token: sh.token,
		LastRunID: r.spec.RunID, Since: now, IdleUntil: now.Add(d),
	}
	w := newWarmState(r.spec)
	sh.mu.Lock()
	sh.warm = w
	sh.mu.Unlock()
	if err := control.WriteWarm(sh.dataDir, rec); err != nil {
		sh.log.Warn("warm record not written; not staying warm", "err", err)
		w.end("no record")
		sh.mu.Lock()
		sh.warm = nil
		sh.mu.Unlock()
		return false
	}
	w.arm(d)
	return true
}

func (sh *shim) setConn(conn adapter.Conn, agentPid int) {
	sh.mu.Lock()
	sh.conn, sh.agentPid = conn, agentPid
	sh.mu.Unlock()
}

// idle waits, warm, for the session's next run. It returns the run's
// runner and slot once it serves it, or nil when the shim is to exit.
func (sh *shim) idle(ctx context.Context) (*runner, *slot) {
	w := sh.warmNow()
	if w == nil {
		return nil, nil
	}
	sh.mu.Lock()
	conn := sh.conn
	sh.mu.Unlock()
	sh.log.Info("warm: waiting for the session's next run")
	var ho handoff
	select {
	case ho = <-w.handoff:
	case <-w.closed:
		sh.log.Info("warm shim retiring", "why", w.reason())
		return nil, nil
	case <-sh.shutdown:
		if w.end("stopping") {
			return nil, nil
		}
		// A next run was taken at the same moment: refused below.
		ho = <-w.handoff
	case <-conn.Done():
		if w.end("the agent exited") {
			sh.log.Warn("warm agent exited; retiring")
			return nil, nil
		}
		ho = <-w.handoff // taken at the same moment: refused below
	}
	sh.mu.Lock()
	sh.warm = nil
	sh.mu.Unlock()
	control.RemoveWarm(sh.dataDir, sh.sessionID, os.Getpid())
	refuse := func(err error) (*runner, *slot) {
		sh.log.Warn("warm: next run refused", "run", ho.spec.RunID, "err", err)
		ho.reply <- handoffReply{err: err}
		return nil, nil
	}
	select {
	case <-sh.shutdown:
		return refuse(errors.New("the shim is stopping"))
	case <-conn.Done():
		return refuse(errors.New("the warm agent exited"))
	default:
	}
	sl, err := sh.open(ctx, ho.spec)
	if err != nil {
		return refuse(err)
	}
	if sh.d.OnRun != nil {
		sh.d.OnRun(ho.spec)
	}
	// The runner owns the connection now; it closes it unless it keeps it.
	sh.setConn(nil, sh.agentPid)
	r, boot := sh.prepare(sl, conn)
	sh.log.Info("warm: serving the session's next run", "run", ho.spec.RunID)
	ho.reply <- handoffReply{boot: boot}
	return r, sl
}

// claimSession takes the session lock before the first agent starts: a
// warm shim of the session still holding it is asked to stop, and waited
// for, so two agents never hold one native session.
func (sh *shim) claimSession(ctx context.Context) error {
	sh.mu.Lock()
	held := sh.sesLock != nil
	sh.mu.Unlock()
	if held {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(sh.dataDir, control.WarmDirName), 0o700); err != nil {
		return fmt.Errorf("warm dir: %w", err)
	}
	path := control.SessionLockPath(sh.dataDir, sh.sessionID)
	began := time.Now()
	deadline := began.Add(sessionClaimTimeout)
	for asked := false; ; asked = true {
		l, err := control.TryLock(path)
		if err == nil {
			sh.mu.Lock()
			sh.sesLock = l
			sh.mu.Unlock()
			// Any record left is stale: its shim no longer holds the session.
			control.RemoveWarm(sh.dataDir, sh.sessionID, 0)
			if asked {
				sh.log.Info("took the session from its previous shim", "waited", time.Since(began))
			}
			return nil
		}
		if !errors.Is(err, control.ErrLocked) {
			return fmt.Errorf("session lock: %w", err)
		}
		if !asked {
			sh.stopWarmHolder(ctx)
		}
		if time.Now().After(deadline) {
			return errSessionBusy
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(sessionClaimPoll):
		}
	}
}

// stopWarmHolder asks the session's warm shim, if any, to exit.
func (sh *shim) stopWarmHolder(ctx context.Context) {
	rec, err := control.ReadWarm(sh.dataDir, sh.sessionID)
	if err != nil {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, stopCallTimeout)
	defer cancel()
	_, err = control.Call(cctx, rec.Bootstrap(), control.Request{Op: control.OpStop})
	sh.log.Info("asked the session's warm shim to exit", "pid", rec.Pid, "err", err)
}

// exit closes what the shim still holds: its warm record, its warm agent
// (and the agent's group) and, last, the session lock.
func (sh *shim) exit() {
	sh.mu.Lock()
	w, conn, pid, l := sh.warm, sh.conn, sh.agentPid, sh.sesLock
	sh.warm, sh.conn, sh.sesLock = nil, nil, nil
	sh.mu.Unlock()
	if w != nil && !w.end("exiting") {
		w.abandon()
	}
	control.RemoveWarm(sh.dataDir, sh.sessionID, os.Getpid())
	if conn != nil {
		began := time.Now()
		conn.Close()
		if err := killGroup(pid, syscall.SIGKILL); err != nil {
			sh.log.Warn("signal agent group", "pid", pid, "err", err)
		}
		sh.log.Info("warm agent closed", "took", time.Since(began))
	}
	l.Unlock()
}
