// Package journal is Hermes Desk's memory: one SQLite database (WAL,
// synchronous=FULL) holding projects, sessions, messages, turns, runs and
// every run's events (docs/ARCHITECTURE.md §Journal).
//
// Events are appended through a Writer (one per run) into a group-commit
// queue drained by one goroutine per Store: each drained batch of up to
// Options.MaxBatch events, across all runs of the process, is one
// BEGIN IMMEDIATE transaction that reuses one prepared INSERT. Several
// processes (the app and its shims) may write the same file; a busy timeout
// absorbs their lock contention so SQLITE_BUSY never reaches a caller.
//
// The envelope invariants that matter after a bug or a crash are enforced
// inside each commit's BEGIN IMMEDIATE transaction, once per run per batch
// (insertGroup in commit.go — a per-row trigger tripled append cost): a
// run's batch must continue exactly after its last committed seq and the
// run must not have its `done` yet. A partial unique index refuses a
// second `done`. Run status and pending prompts follow run.Next
// (apply.go).
package journal

import (
	"errors"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

// Sentinel errors callers branch on: the classes of backend/errdefs under
// the journal's names, plus the journal's own. Returned errors wrap them
// with %w and name what failed.
var (
	ErrNotFound    = errdefs.ErrNotFound
	ErrConflict    = errdefs.ErrConflict
	ErrRunTerminal = errdefs.ErrRunTerminal
	ErrDiskFull    = errdefs.ErrDiskFull
	ErrReadOnly    = errdefs.ErrReadOnly
	// ErrInvalid: a bad argument (empty name, invalid JSON setting).
	ErrInvalid = errdefs.ErrInvalid
	// ErrClosed: the Store (or Writer) was closed.
	ErrClosed = errdefs.ErrClosed

	ErrSchemaTooNew = errors.New("journal: database schema is newer than this program")
	ErrNotDatabase  = errors.New("journal: file is not a Hermes Desk database")
	ErrInvalidEvent = fmt.Errorf("%w: journal: invalid event", errdefs.ErrInvalid)
	// ErrSessionImported refuses a new turn in an imported (read-only)
	// session.
	ErrSessionImported = fmt.Errorf("%w: journal: the session was imported and is read-only", errdefs.ErrConflict)
	// ErrWriterBusy: another Writer of this process already owns the run.
	ErrWriterBusy = fmt.Errorf("%w: journal: run already has a writer in this process", errdefs.ErrConflict)
)
