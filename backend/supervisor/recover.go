// Recovery (docs/ARCHITECTURE.md §Durability): at start and when a shim's
// connection drops, live shims are re-adopted, dead ones fenced
// (fence.go) and specs left by ended runs removed.

package supervisor

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// adopt follows a live shim this supervisor did not start.
func (s *Supervisor) adopt(r run.Run) {
	t := s.track(r)
	// What the journal held when the run was read is the bus's and the
	// watchers' to read there: the stream's catch-up starts after it, not
	// at the run's first event.
	s.hub(r.ID, false).skipTo(r.LastSeq)
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

// removeSpec deletes the spec of a run that has ended (control.RemoveSpec).
func (s *Supervisor) removeSpec(runID string) {
	if err := control.RemoveSpec(s.cfg.DataDir, runID); err != nil {
		s.log.Warn("the ended run's spec stays", "run", runID, "err", err)
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
		if r.Status == run.StatusParked {
			continue // waits for its quota: schedule re-arms its timer from the journal
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

// removeEndedSpecs deletes the spec files of runs that are no longer
// active: older versions kept them after the run, with the user's message
// as typed and the agent's keys (docs/ARCHITECTURE.md §Security, secrets).
// The specs are listed before the active runs are read: a spec is written
// only after its run is committed, so a spec seen here whose run is not
// active then belongs to a run that has ended.
func (s *Supervisor) removeEndedSpecs(ctx context.Context) {
	specs, err := filepath.Glob(filepath.Join(s.cfg.DataDir, "runs", "*", control.SpecFile))
	if err != nil || len(specs) == 0 {
		return
	}
	runs, err := s.cfg.Store.ActiveRuns(ctx)
	if err != nil {
		return
	}
	active := make(map[string]bool, len(runs))
	for _, r := range runs {
		active[r.ID] = true
	}
	removed := 0
	for _, p := range specs {
		if id := filepath.Base(filepath.Dir(p)); !active[id] {
			if os.Remove(p) == nil {
				removed++
			}
		}
	}
	if removed > 0 {
		s.log.Info("removed the specs of ended runs", "count", removed)
	}
}
