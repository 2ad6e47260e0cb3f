// Parked runs (docs/ARCHITECTURE.md §Usage, parked runs): a run its
// vendor's rate limit stopped waits, with no shim, until its quota resets.
// One timer is armed for the earliest reset (re-armed by every schedule,
// so also at start from the journal); when it fires, schedule starts the
// due runs like queued ones, oldest first within the concurrency limit.

package supervisor

import (
	"context"
	"encoding/json"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/park"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// parkState is the supervisor's part of parking; under schedMu.
type parkState struct {
	timer *time.Timer
	// resumeNow: runs the person asked to resume before their reset.
	resumeNow map[string]bool
}

// parkedDue reads the active runs' parked ones and says which are due now
// (park.Due), arming the timer for the next reset. Called by schedule,
// under schedMu.
func (s *Supervisor) parkedDue(runs []run.Run) map[string]bool {
	var parked []park.Run
	for _, r := range runs {
		if r.Status != run.StatusParked || s.lookup(r.ID) != nil {
			continue
		}
		pr := park.Run{ID: r.ID, Vendor: r.Agent}
		if t, err := time.Parse(time.RFC3339, r.ResumesAt); err == nil {
			pr.ResumesAt = t
		}
		parked = append(parked, pr)
	}
	due, wake := park.Due(parked, time.Now(), s.park.resumeNow)
	if s.park.timer != nil {
		s.park.timer.Stop()
		s.park.timer = nil
	}
	if !wake.IsZero() {
		// Go timers do not count a suspended machine's sleep: a wake-up
		// after a suspend runs schedule through its other doors (a run
		// ending, a submission, a restart) or this timer, late.
		s.park.timer = time.AfterFunc(time.Until(wake), func() { s.go_(s.schedule) })
	}
	return due
}

// launched forgets a resume-now request once its run starts.
func (s *Supervisor) launchedParked(id string) { delete(s.park.resumeNow, id) }

// Resume starts a parked run now instead of at its reset (the person's
// "Resume now"); it takes its turn in the queue like any run.
func (s *Supervisor) Resume(ctx context.Context, runID string) (run.ControlResult, error) {
	if s.isClosed() {
		return run.ControlResult{}, ErrClosed
	}
	r, err := s.getRun(ctx, runID)
	if err != nil {
		return run.ControlResult{}, err
	}
	if r.Terminal || r.Status != run.StatusParked || s.lookup(runID) != nil {
		return notActive("the run is not waiting for quota"), nil
	}
	s.schedMu.Lock()
	if s.park.resumeNow == nil {
		s.park.resumeNow = map[string]bool{}
	}
	s.park.resumeNow[runID] = true
	s.schedMu.Unlock()
	s.log.Info("parked run resumed by request", "run", runID)
	s.schedule()
	return run.ControlResult{Accepted: true, Status: run.ControlAccepted}, nil
}

// stopParkTimer is part of Close.
func (s *Supervisor) stopParkTimer() {
	s.schedMu.Lock()
	defer s.schedMu.Unlock()
	if s.park.timer != nil {
		s.park.timer.Stop()
	}
}

// noPark: the setting turns parking off (a rate-limited run fails).
func (s *Supervisor) noPark(ctx context.Context) bool {
	v, ok, err := s.cfg.Store.Setting(ctx, park.SettingEnabled)
	if err != nil || !ok || isNull(v) {
		return false
	}
	var on bool
	if err := json.Unmarshal(v, &on); err != nil {
		s.log.Warn("ignoring an invalid setting", "key", park.SettingEnabled, "value", string(v))
		return false
	}
	return !on
}
