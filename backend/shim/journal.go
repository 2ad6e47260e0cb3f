package shim

import (
	"context"
	"errors"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Journal is what the shim needs from the journal. The journal derives run
// status, pending prompts and the turn's progress from committed events, so
// the shim only appends (through a run.Writer) and stores the agent's own
// session id on the session (UpdateSession with NativeSessionID) so a later
// run resumes it. backend/journal's Store satisfies it directly
// (docs/ARCHITECTURE.md §Journal); tests use backend/mock's Journal.
type Journal interface {
	GetRun(ctx context.Context, runID string) (run.Run, error)
	OpenWriter(ctx context.Context, runID string) (run.Writer, error)
	UpdateSession(ctx context.Context, id string, u run.SessionUpdate) (run.Session, error)
	// Checkpoint moves the WAL into the database and truncates it (after
	// a large run); it may give up if readers stay in the way.
	Checkpoint(ctx context.Context) error
	Close() error
}

// OpenJournalFunc opens the journal at path; onCommit receives every batch
// of committed events in commit order.
type OpenJournalFunc func(path string, onCommit func([]run.Event)) (Journal, error)

// OpenJournal opens the real journal for a shim.
func OpenJournal(path string, onCommit func([]run.Event)) (Journal, error) {
	j, err := journal.Open(path, journal.Options{OnCommit: onCommit})
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return j, nil
}

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
