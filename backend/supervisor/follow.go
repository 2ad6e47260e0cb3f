package supervisor

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/datadir"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// tracked is a run whose shim this supervisor launched or adopted.
type tracked struct {
	runID     string
	sessionID string

	mu    sync.Mutex
	boot  control.Bootstrap
	err   error
	ready chan struct{} // closed once boot (or err) is known
	once  sync.Once
}

func (t *tracked) setBoot(b control.Bootstrap) {
	t.mu.Lock()
	t.boot = b
	t.mu.Unlock()
	t.once.Do(func() { close(t.ready) })
}

func (t *tracked) fail(err error) {
	t.mu.Lock()
	t.err = err
	t.mu.Unlock()
	t.once.Do(func() { close(t.ready) })
}

// bootstrap waits (bounded by ctx) until the shim's bootstrap is known.
func (t *tracked) bootstrap(ctx context.Context) (control.Bootstrap, error) {
	select {
	case <-t.ready:
	case <-ctx.Done():
		return control.Bootstrap{}, ctx.Err()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.boot, t.err
}

func (s *Supervisor) track(r run.Run) *tracked {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &tracked{runID: r.ID, sessionID: r.SessionID, ready: make(chan struct{})}
	s.tracked[r.ID] = t
	if s.hubs[r.ID] == nil {
		s.hubs[r.ID] = &runHub{tap: s.emitTap}
	}
	return t
}

func (s *Supervisor) untrack(runID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tracked, runID)
	if h := s.hubs[runID]; h != nil && h.refs <= 0 {
		delete(s.hubs, runID)
	}
}

func (s *Supervisor) lookup(runID string) *tracked {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tracked[runID]
}

// adopt follows a live shim this supervisor did not start.
func (s *Supervisor) adopt(r run.Run) {
	t := s.track(r)
	s.log.Info("adopting live shim", "run", r.ID)
	if !s.go_(func() {
		for {
			boot, err := s.waitBootstrap(r.ID, 0, nil, nil)
			if errors.Is(err, ErrClosed) {
				return
			}
			if err == nil {
				t.setBoot(boot)
				s.follow(t)
				s.capWarm()
				return
			}
			// Held lock but no bootstrap in time: decide by the lock again.
			// A live shim stays followed (its bootstrap may come late, or
			// never on a full disk) so that its death is still noticed.
			if !s.check(r.ID).keepFollowing() {
				t.fail(err)
				return
			}
		}
	}) {
		s.untrack(r.ID)
	}
}

// follow feeds the run's hub from the shim's event stream until the run
// ends, resubscribing after a drop and re-checking the shim whenever the
// connection breaks.
func (s *Supervisor) follow(t *tracked) {
	h := s.hub(t.runID, false)
	backoff := 20 * time.Millisecond
	for s.ctx.Err() == nil {
		boot, _ := t.bootstrap(s.ctx)
		err := s.stream(h, boot)
		if s.ctx.Err() != nil {
			return
		}
		if errors.Is(err, control.ErrDropped) {
			continue // fell behind; resume from the hub's last seq
		}
		if !s.check(t.runID).keepFollowing() {
			return
		}
		// Alive but unreachable for now (busy, restarting its listener):
		// try again, re-reading the bootstrap in case it changed.
		if b, err := control.ReadBootstrap(s.cfg.DataDir, t.runID); err == nil {
			t.setBoot(b)
		}
		select {
		case <-time.After(backoff):
		case <-s.ctx.Done():
			return
		}
		if backoff < time.Second {
			backoff *= 2
		}
	}
}

// stream subscribes once and publishes until the stream ends.
func (s *Supervisor) stream(h *runHub, boot control.Bootstrap) error {
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.ControlTimeout)
	sub, err := control.Subscribe(ctx, boot, h.last())
	cancel()
	if err != nil {
		return err
	}
	stop := context.AfterFunc(s.ctx, func() { sub.Close() })
	defer stop()
	defer sub.Close()
	for {
		ev, err := sub.Next()
		if err != nil {
			return err
		}
		h.publish(ev)
	}
}

type verdict int

const (
	shimLive    verdict = iota // the lock is held: keep following
	runEnded                   // the run has its terminal event
	shimDead                   // fenced and closed as interrupted
	notStarted                 // fenced, but no shim ever served it: schedule starts it
	fenceFailed                // fenced, but the interruption could not be written: try again
)

// keepFollowing: the run still needs this supervisor (a live shim, or a
// dead one whose run is not closed yet).
func (v verdict) keepFollowing() bool { return v == shimLive || v == fenceFailed }

// check decides a run's fate after its shim's connection dropped: ended
// runs are let go, a held lock means a live shim, and a lock that can be
// taken means the shim is dead — then, and only then, the run is closed as
// interrupted and the agent's recorded process group killed.
func (s *Supervisor) check(runID string) verdict {
	ctx := context.WithoutCancel(s.ctx)
	defer func() {
		if s.lookup(runID) == nil {
			s.schedule()
		}
	}()
	var f checkFacts
	if r, err := s.cfg.Store.GetRun(ctx, runID); err == nil && r.Terminal {
		f.terminal = true
	}
	var lock *control.Lock
	if !f.terminal {
		var err error
		lock, err = control.TryLock(s.lockPath(runID))
		switch {
		case errors.Is(err, control.ErrLocked):
			f.lockHeld = true
		case err != nil:
			s.log.Error("fence run", "run", runID, "err", err)
			f.lockErr = true
		default:
			defer lock.Unlock()
			if r, err := s.cfg.Store.GetRun(ctx, runID); err == nil && !r.Terminal && r.Status == run.StatusQueued && r.LastSeq == 0 {
				f.neverStarted = true
			}
		}
	}
	v := decideCheck(f)
	if s.cfg.OnCheck != nil {
		defer s.cfg.OnCheck(runID, v.keepFollowing())
	}
	switch v {
	case runEnded:
		s.publishFromJournal(runID)
		s.untrack(runID)
		return v
	case shimLive:
		return v
	case notStarted:
		s.log.Warn("run never started; scheduling it again", "run", runID)
		s.untrack(runID)
		return v
	}
	if !s.fenced(ctx, runID) {
		return fenceFailed // stays tracked; the follower checks again
	}
	s.untrack(runID)
	return shimDead
}

// fenced closes a run whose lock the caller holds and whose shim is gone;
// false when its interruption could not be written (busy or full
// journal), so the caller must try again.
func (s *Supervisor) fenced(ctx context.Context, runID string) bool {
	r, err := s.cfg.Store.GetRun(ctx, runID)
	if err == nil && r.Terminal {
		s.publishFromJournal(runID)
		return true // it finished just before its shim went away
	}
	if b, err := control.ReadBootstrap(s.cfg.DataDir, runID); err == nil {
		killAgentGroup(b.AgentPid)
	}
	reason := s.deathReason(runID)
	written, err := s.cfg.Store.InterruptRunAfter(ctx, runID, reason, control.TailFile(s.logPath(runID), 2048), s.announced(runID))
	if err != nil {
		s.log.Error("interrupt dead run", "run", runID, "err", err)
		return false
	}
	if written {
		s.log.Warn("run interrupted: its shim is gone", "run", runID, "reason", reason)
	}
	s.removeSpec(runID)
	s.causes.Delete(runID)
	s.publishFromJournal(runID)
	return true
}

// deathReason says why a dead shim's run ends: the reason the shim left
// (its journal failed, the disk filled), else a condition of the data
// folder seen now or at an earlier attempt to close the run (a full disk
// fails that attempt too), else that the process ended unexpectedly.
func (s *Supervisor) deathReason(runID string) string {
	if n, err := control.ReadExitNote(s.cfg.DataDir, runID); err == nil && n.Message != "" {
		return n.Message
	}
	if err := s.dataDirProblem(); err != nil {
		if msg, ok := datadir.Message(err); ok {
			why := "The run was stopped because " + msg + "."
			s.causes.Store(runID, why)
			return why
		}
	}
	if why, ok := s.causes.Load(runID); ok {
		return why.(string)
	}
	return "The run's process ended unexpectedly, so the run was interrupted."
}

// announced is the highest seq of runID published to observers: a client
// may hold it, so nothing written later may reuse it (a damaged WAL can
// lose commits that were already shown).
func (s *Supervisor) announced(runID string) int64 {
	s.mu.Lock()
	h := s.hubs[runID]
	s.mu.Unlock()
	if h == nil {
		return 0
	}
	return h.last()
}

// interrupt fences and interrupts a run no shim ever served.
func (s *Supervisor) interrupt(runID, reason, detail string) {
	lock, err := control.TryLock(s.lockPath(runID))
	if err != nil {
		return // a shim owns it after all, or the fs failed: leave it
	}
	defer lock.Unlock()
	if _, err := s.cfg.Store.InterruptRunAfter(context.WithoutCancel(s.ctx), runID, reason, detail, s.announced(runID)); err != nil {
		s.log.Error("interrupt run", "run", runID, "err", err)
	} else {
		s.removeSpec(runID)
	}
	s.publishFromJournal(runID)
}

// removeSpec deletes the spec of a run that has ended (control.RemoveSpec).
func (s *Supervisor) removeSpec(runID string) {
	if err := control.RemoveSpec(s.cfg.DataDir, runID); err != nil {
		s.log.Warn("the ended run's spec stays", "run", runID, "err", err)
	}
}

// publishFromJournal pushes events the supervisor itself wrote (or that a
// shim committed while nobody streamed) to the run's observers and to the
// event tap. A run nobody follows or watches — a queued run cancelled
// before its shim started, one interrupted before it ran — has no hub: one
// is held for this publish, so the watch bus (and the tray and sidebar
// that read it) learns that the run ended, as the journal says
// (docs/ARCHITECTURE.md §The watch bus; issue 23.1's phantom runs).
func (s *Supervisor) publishFromJournal(runID string) {
	h := s.hub(runID, true)
	defer s.releaseHub(runID)
	ctx := context.WithoutCancel(s.ctx)
	for {
		evs, err := s.cfg.Store.Events(ctx, runID, h.last(), eventPage)
		if err != nil || len(evs) == 0 {
			return
		}
		for _, ev := range evs {
			h.publish(ev)
		}
		if len(evs) < eventPage {
			return
		}
	}
}

// Recover re-adopts every run that outlived the previous supervisor: a
// live shim (its lock held) is followed again; a dead one is fenced and
// closed as interrupted, once; queued runs are started as slots allow.
func (s *Supervisor) Recover(ctx context.Context) error {
	s.removeEndedSpecs(ctx)
	runs, err := s.cfg.Store.ActiveRuns(ctx)
	if err != nil {
		return err
	}
	s.schedMu.Lock()
	for _, r := range runs {
		if s.lookup(r.ID) != nil {
			continue
		}
		locked, err := control.IsLocked(s.lockPath(r.ID))
		if err != nil {
			s.log.Error("recover: lock", "run", r.ID, "err", err)
			continue
		}
		if locked {
			s.adopt(r)
			continue
		}
		if r.Status == run.StatusQueued && !fileExists(filepath.Join(s.runDir(r.ID), control.BootstrapFile)) {
			continue // never got a shim: schedule starts it (or interrupts it without a spec)
		}
		lock, err := control.TryLock(s.lockPath(r.ID))
		if err != nil {
			continue // taken meanwhile: the next check sees it
		}
		ok := s.fenced(ctx, r.ID)
		lock.Unlock()
		if !ok {
			s.adopt(r) // its follower fences it again until it is closed
		}
	}
	s.schedMu.Unlock()
	s.schedule()
	// A lower cap than the previous supervisor's, or shims gone warm
	// while none was running.
	s.go_(s.capWarm)
	return nil
}
