package schedule

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestSettle(t *testing.T) {
	cases := []struct {
		name   string
		in     Firing
		status string
		reason string
	}{
		{"completed run", Firing{Outcome: OutcomeFired, RunStatus: run.StatusCompleted}, "completed", ""},
		{"running run", Firing{Outcome: OutcomeFired, RunStatus: run.StatusRunning}, "running", ""},
		{"failed after starting", Firing{Outcome: OutcomeFired, RunStatus: run.StatusFailed, RunError: "boom"}, "failed", ""},
		{"failed before the agent started", Firing{Outcome: OutcomeFired, RunStatus: run.StatusFailed, StartFailed: true, RunError: "agent not found"}, "failed_to_start", "agent not found"},
		{"run row gone", Firing{Outcome: OutcomeFired, RunID: "run_x"}, "failed_to_start", "the run was not recorded"},
		{"refused at start", Firing{Outcome: OutcomeFailedToStart, Reason: "unknown agent"}, "failed_to_start", "unknown agent"},
		{"skipped", Firing{Outcome: OutcomeSkipped, Reason: "still running"}, "skipped", "still running"},
		{"missed", Firing{Outcome: OutcomeMissed, Missed: 3}, "missed", ""},
	}
	for _, c := range cases {
		f := c.in
		f.Settle()
		if f.Status != c.status || f.Reason != c.reason {
			t.Errorf("%s: status %q reason %q, want %q %q", c.name, f.Status, f.Reason, c.status, c.reason)
		}
	}
}
