// Scheduling (docs/ARCHITECTURE.md §Scheduling): queued runs start in
// order as concurrency slots free up.

package supervisor

import (
	"context"
	"encoding/json"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// schedule starts queued runs while slots are free: at most one active run
// per session, at most maxConcurrent running overall, oldest first.
func (s *Supervisor) schedule() {
	if s.isClosed() {
		return
	}
	s.schedMu.Lock()
	defer s.schedMu.Unlock()
	if err := s.dataDirProblem(); err != nil {
		s.log.Warn("queued runs wait", "err", err)
		return
	}
	ctx := s.ctx
	runs, err := s.cfg.Store.ActiveRuns(ctx)
	if err != nil {
		s.log.Error("schedule: list active runs", "err", err)
		return
	}
	f := queueFacts{runs: runs, tracked: map[string]bool{}, specs: map[string]bool{},
		preparing: s.preparing.Load() > 0, max: s.maxConcurrent(ctx), due: s.parkedDue(runs)}
	for _, r := range runs {
		if s.lookup(r.ID) != nil {
			f.tracked[r.ID] = true
		} else if (r.Status == run.StatusQueued || f.due[r.ID]) && fileExists(s.specPath(r.ID)) {
			f.specs[r.ID] = true
		}
	}
	// No lock probe here: a free lock can look held for a moment (a child
	// forked while this process had the lock file open shares the lock
	// until it execs), and a queued run taken for an owned one was waited
	// for and then fenced without ever starting. Shims that outlived the
	// previous supervisor were adopted by Recover; one that takes the lock
	// only now wins the race with the shim launched here, which then
	// follows it (waitBootstrap).
	p := planQueue(f)
	for _, id := range p.lost {
		s.interrupt(id, "The run's start request was lost before it could start.", "")
	}
	for _, r := range p.launch {
		if r.Status == run.StatusParked {
			s.log.Info("resuming a parked run", "run", r.ID, "agent", r.Agent)
			s.launchedParked(r.ID)
		}
		s.launch(r)
	}
}

// maxConcurrent is the running-runs cap now: the setting if it is a valid
// number, else the configured one.
func (s *Supervisor) maxConcurrent(ctx context.Context) int {
	v, ok, err := s.cfg.Store.Setting(ctx, SettingMaxConcurrent)
	if err != nil || !ok || isNull(v) {
		return s.cfg.MaxConcurrent
	}
	var n int
	if err := json.Unmarshal(v, &n); err != nil || n < 1 {
		s.log.Warn("ignoring an invalid setting", "key", SettingMaxConcurrent, "value", string(v))
		return s.cfg.MaxConcurrent
	}
	return n
}
