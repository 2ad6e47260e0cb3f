package supervisor

import (
	"context"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Store is what the supervisor needs from the journal. backend/journal's
// Store satisfies it directly: the request and result types are the
// journal's contract in backend/run (docs/ARCHITECTURE.md §Journal); tests
// use backend/mock's function-field Journal.
type Store interface {
	// Submit records the user message, the submitted turn and the queued
	// run in one synchronous transaction; idempotent by ClientRequestID.
	Submit(ctx context.Context, req run.SubmitRequest) (run.Submission, error)
	GetRun(ctx context.Context, runID string) (run.Run, error)
	// ActiveRuns lists non-terminal runs, oldest first.
	ActiveRuns(ctx context.Context) ([]run.Run, error)
	GetSession(ctx context.Context, id string) (run.Session, error)
	GetProject(ctx context.Context, id string) (run.Project, error)
	// Events returns up to limit events with seq > after, in seq order.
	Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error)
	// InterruptRunAfter writes the synthetic error + done{interrupted} once and
	// closes the turn; written is false when the run had already ended.
	// announced is the highest seq already shown live: the synthetic
	// events go after it even if the journal lost events up to it.
	InterruptRunAfter(ctx context.Context, runID, reason, detail string, announced int64) (written bool, err error)
	// EndRun ends a run that has no shim (never started, or failed to
	// start) with an error (when reason is set) and done{status}.
	EndRun(ctx context.Context, runID string, status run.Status, reason, detail string) (run.Event, error)
	// Setting returns a setting's raw JSON value; ok is false when unset.
	Setting(ctx context.Context, key string) (value []byte, ok bool, err error)
}

// A Store wraps the classes of backend/errdefs (not found, conflict, run
// terminal) so the supervisor can branch without knowing the journal.
