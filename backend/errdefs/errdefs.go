// Package errdefs is Hermes Desk's one error vocabulary (containerd's
// errdefs; docs/ARCHITECTURE.md §Errors). Every package that can fail in a
// way a caller branches on wraps one of these classes with %w and says what
// failed; the edges (the service for every transport, the CLI) map a class
// to a status and a sentence for people exactly once.
//
// Packages may keep their historical names (journal.ErrNotFound,
// shim.ErrRunTerminal, …) as aliases of these values, so errors.Is works
// across package boundaries without remapping.
package errdefs

import (
	"errors"
	"fmt"
)

// The classes.
var (
	// ErrNotFound: no such project, session, run, schedule or setting.
	ErrNotFound = errors.New("not found")
	// ErrConflict: the request contradicts recorded state (a
	// client_request_id reused with another body, two writers for a run).
	ErrConflict = errors.New("conflict")
	// ErrRunTerminal: the run already has its terminal event; nothing more
	// can be recorded or asked of it.
	ErrRunTerminal = errors.New("run already ended")
	// ErrInvalid: a bad argument (empty name, malformed JSON, an unknown
	// agent).
	ErrInvalid = errors.New("invalid argument")
	// ErrUnavailable: the store or process cannot serve now (shutting
	// down, disk full, read-only, data dir gone). Members below wrap it.
	ErrUnavailable = errors.New("unavailable")
	// ErrUnsupported: the agent or platform cannot do it.
	ErrUnsupported = errors.New("not supported")
)

// Members of ErrUnavailable: errors.Is(ErrDiskFull, ErrUnavailable) holds.
var (
	ErrDiskFull = fmt.Errorf("%w: disk full", ErrUnavailable)
	ErrReadOnly = fmt.Errorf("%w: database is read-only", ErrUnavailable)
	ErrClosed   = fmt.Errorf("%w: closed", ErrUnavailable)
	// ErrDataDirGone: the data folder was deleted or replaced while the
	// process ran; what it records goes nowhere until a restart.
	ErrDataDirGone = fmt.Errorf("%w: data folder deleted or replaced", ErrUnavailable)
)
