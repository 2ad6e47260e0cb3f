package control

import (
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

// The control socket's codes are translated into the one error vocabulary
// (backend/errdefs, docs/ARCHITECTURE.md §Errors) here, once: a caller
// branches on errdefs classes (or the sentinels below, which belong to
// them) and the service maps the class to its code and sentence; nobody
// past this file reads a control code.

// codeClass is the errdefs class of each code a shim answers with.
var codeClass = map[string]error{
	CodeUnauthorized: errdefs.ErrConflict,    // the shim serves another supervisor (fencing) or refuses this peer
	CodeBadRequest:   errdefs.ErrInvalid,     // the request cannot be served as sent
	CodeInternal:     errdefs.ErrUnavailable, // the shim could not record it now
	CodeDropped:      errdefs.ErrUnavailable, // resume from the last seq
	CodeEnded:        errdefs.ErrRunTerminal, // the run is over
	CodeNotWarm:      errdefs.ErrConflict,    // the shim is busy, exiting or serves another agent
}

// classOf is code's class; an unknown code (a newer shim's) is unavailable.
func classOf(code string) error {
	if c, ok := codeClass[code]; ok {
		return c
	}
	return errdefs.ErrUnavailable
}

// classed is a sentinel that keeps its own words and belongs to errdefs
// classes: errors.Is matches the sentinel and each class.
type classed struct {
	msg     string
	classes []error
}

func (e *classed) Error() string   { return e.msg }
func (e *classed) Unwrap() []error { return e.classes }

func newClassed(msg string, classes ...error) error { return &classed{msg: msg, classes: classes} }

// rejection is the error for a refused request: ErrRejected, of the code's class.
func rejection(code, msg string) error {
	return fmt.Errorf("%w: %s: %s", newClassed(ErrRejected.Error(), ErrRejected, classOf(code)), code, msg)
}
