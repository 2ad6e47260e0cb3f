package shim

import (
	"context"
	"errors"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Journal is what the shim needs from the journal. The journal derives run
// status, pending prompts and the turn's progress from committed events, so
// the shim only appends. backend/journal's Store satisfies it through the
// thin adapter in journal_store.go; tests use function-field fakes.
type Journal interface {
	GetRun(ctx context.Context, runID string) (run.Run, error)
	OpenWriter(ctx context.Context, runID string) (Writer, error)
	// SetNativeSessionID stores the agent's own session id on the session so
	// a later run resumes it.
	SetNativeSessionID(ctx context.Context, sessionID, nativeID string) error
	// Checkpoint moves the WAL into the database and truncates it (after
	// a large run); it may give up if readers stay in the way.
	Checkpoint(ctx context.Context) error
	Close() error
}

// Writer appends one run's events; seqs are assigned by it.
type Writer interface {
	// Append enqueues an event for group commit.
	Append(t run.EventType, payload any) (run.Event, error)
	// AppendSync commits an event before returning.
	AppendSync(ctx context.Context, t run.EventType, payload any) (run.Event, error)
	Flush(ctx context.Context) error
	Close() error
}

// OpenJournalFunc opens the journal at path; onCommit receives every batch
// of committed events in commit order.
type OpenJournalFunc func(path string, onCommit func([]run.Event)) (Journal, error)

// Errors a Journal/Writer implementation wraps so the shim can branch
// without importing the journal's internals.
var (
	// ErrRunTerminal: the run already has its terminal event.
	ErrRunTerminal = errdefs.ErrRunTerminal
	// ErrDiskFull: the journal cannot grow.
	ErrDiskFull = errdefs.ErrDiskFull
)

func isRunTerminal(err error) bool { return errors.Is(err, ErrRunTerminal) }

// safeJournalReason says why recording failed, in words for people.
func safeJournalReason(err error) string {
	switch {
	case err == nil:
		return "the journal stopped accepting events"
	case errors.Is(err, ErrDiskFull):
		return "the disk is full"
	}
	return "the journal failed (see the run's log)"
}
