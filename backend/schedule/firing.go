package schedule

import (
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Firing is one row of a schedule's history: what happened at one due time
// (or one "run now").
type Firing struct {
	ID         int64     `json:"id"`
	ScheduleID string    `json:"schedule_id"`
	DueAt      time.Time `json:"due_at"`
	// At is when the firing was handled (later than DueAt for a catch-up).
	At      time.Time `json:"at"`
	Outcome Outcome   `json:"outcome"`
	RunID   string    `json:"run_id,omitempty"`
	// SessionID is where the run went.
	SessionID string `json:"session_id,omitempty"`
	// RequestID makes the start idempotent: a firing recorded as starting
	// before a crash is started with the same id on restart.
	RequestID string `json:"-"`
	// Missed counts the due times this row stands for that did not run
	// (a catch-up's missed ones, or the ones a skip policy dropped).
	Missed  int  `json:"missed,omitempty"`
	CatchUp bool `json:"catch_up,omitempty"`
	// Manual: "run now", not a due time.
	Manual bool   `json:"manual,omitempty"`
	Reason string `json:"reason,omitempty"`

	// Read from the run, never stored here: the run is the truth.
	RunStatus run.Status `json:"run_status,omitempty"`
	// StartFailed: the run failed before its agent ran (not installed,
	// could not be started, its process never came up).
	StartFailed bool   `json:"-"`
	RunError    string `json:"run_error,omitempty"`
	// Status is the one word a person reads: completed, failed, running,
	// queued, cancelled, interrupted, skipped, missed, failed_to_start or
	// starting.
	Status string `json:"status"`
}

// Settle fills Status (and Reason for a run that never started) from the
// outcome and the run's real state: a firing is "completed" only if its
// run completed, and a run that ended failed before its agent started is
// "failed_to_start" with the run's reason, never "done".
func (f *Firing) Settle() {
	switch f.Outcome {
	case OutcomeFired:
		switch {
		case f.RunStatus == "":
			f.Status = "failed_to_start"
			if f.Reason == "" {
				f.Reason = "the run was not recorded"
			}
		case f.RunStatus == run.StatusFailed && f.StartFailed:
			f.Status = "failed_to_start"
			if f.Reason == "" {
				f.Reason = f.RunError
			}
		default:
			f.Status = string(f.RunStatus)
		}
	default:
		f.Status = string(f.Outcome)
	}
}
