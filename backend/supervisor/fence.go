// Fencing (docs/ARCHITECTURE.md §Fencing): after a shim's connection drops,
// the supervisor decides its run's fate only by taking the run's lock, and
// closes a dead shim's run as interrupted once.

package supervisor

import (
	"context"
	"errors"

	"github.com/hermesdesk/hermesdesk/backend/datadir"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

type verdict int

const (
	shimLive    verdict = iota // the lock is held: keep following
	runEnded                   // the run has its terminal event
	shimDead                   // fenced and closed as interrupted
	notStarted                 // fenced, but no shim ever served it: schedule starts it
	fenceFailed                // fenced, but the interruption could not be written: try again
	runParked                  // its shim parked it on a rate limit: schedule resumes it at the reset
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
			if r, err := s.cfg.Store.GetRun(ctx, runID); err == nil && !r.Terminal {
				f.neverStarted = r.Status == run.StatusQueued && r.LastSeq == 0
				f.parked = r.Status == run.StatusParked
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
	case runParked:
		s.log.Info("run parked until its quota resets", "run", runID)
		s.publishFromJournal(runID)
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
