package service

import (
	"context"
	"errors"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"log/slog"
)

// Code is a stable, machine-readable error class. Transports map it to
// their own status (HTTP 404, 409, …); clients branch on it.
type Code string

const (
	CodeBadRequest  Code = "bad_request"
	CodeNotFound    Code = "not_found"
	CodeConflict    Code = "conflict"
	CodeTooLarge    Code = "too_large"
	CodeUnavailable Code = "unavailable"
	CodeInternal    Code = "internal"
	// CodeUnauthorized and CodeForbidden are the transports' refusals
	// (missing token; foreign Host or Origin).
	CodeUnauthorized Code = "unauthorized"
	CodeForbidden    Code = "forbidden"
	// CodeTooSlow ends an event stream whose reader could not keep up.
	CodeTooSlow Code = "too_slow"
	// CodeFolderMissing refuses a run in a project whose folder is gone
	// (moved or deleted): nothing is sent; the person locates the folder
	// or removes the project (ErrFolderMissing).
	CodeFolderMissing Code = "folder_missing"
)

// Codes lists every Code, for the generated contract (backend/contract).
var Codes = []Code{
	CodeBadRequest, CodeNotFound, CodeConflict, CodeTooLarge, CodeUnavailable, CodeInternal,
	CodeUnauthorized, CodeForbidden, CodeTooSlow, CodeFolderMissing,
}

// Error is what every service method returns on failure: a stable code and
// a message safe to show a person. The underlying error (paths, SQL, …)
// stays in Err for logs and errors.Is, never in Message.
type Error struct {
	Code    Code
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Sentinels for errors.Is on a service error's class.
var (
	ErrNotFound    = &Error{Code: CodeNotFound, Message: "not found"}
	ErrConflict    = &Error{Code: CodeConflict, Message: "conflict"}
	ErrBadRequest  = &Error{Code: CodeBadRequest, Message: "bad request"}
	ErrUnavailable = &Error{Code: CodeUnavailable, Message: "unavailable"}
	// ErrFolderMissing is the class of checkRunnableProject's missing-folder refusals.
	ErrFolderMissing = &Error{Code: CodeFolderMissing, Message: "the project folder is missing"}
)

// Is makes errors.Is(err, ErrNotFound) match any Error of the same code:
// a target without an underlying error stands for its whole class.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Err == nil && t.Code == e.Code
}

// CodeOf returns err's code; CodeInternal for anything unclassified.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// MessageOf returns the safe message of err.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

func badRequest(format string, args ...any) error {
	return &Error{Code: CodeBadRequest, Message: fmt.Sprintf(format, args...)}
}

func notFound(what string) error {
	return &Error{Code: CodeNotFound, Message: what + " not found"}
}

// errorClasses maps the one error vocabulary (backend/errdefs) to codes
// and safe sentences, once, for every transport (docs/ARCHITECTURE.md
// §Errors). The first class that matches wins: members before classes.
var errorClasses = []struct {
	err     error
	code    Code
	message string // empty: defaultMessage for the code and object
}{
	{errdefs.ErrNotFound, CodeNotFound, ""},
	{errdefs.ErrRunTerminal, CodeConflict, "the run has already ended"},
	{errdefs.ErrConflict, CodeConflict, "conflicts with an earlier request (same client_request_id, different message)"},
	{errdefs.ErrInvalid, CodeBadRequest, "invalid request"},
	{errdefs.ErrDiskFull, CodeUnavailable, "the disk is full"},
	{errdefs.ErrReadOnly, CodeUnavailable, "the data folder is read-only"},
	{errdefs.ErrClosed, CodeUnavailable, "shutting down"},
	{errdefs.ErrDataDirGone, CodeUnavailable, "the data folder was deleted or replaced while Hermes Desk was running; restart Hermes Desk to go on"},
	{errdefs.ErrUnavailable, CodeUnavailable, ""},
	{errdefs.ErrUnsupported, CodeBadRequest, "not supported by this agent"},
}

// classify turns a dependency's error into an *Error, logging the detail
// (which may hold paths or SQL) and keeping only a safe message. what names
// the object for not-found messages ("run", "session").
func (s *Service) classify(ctx context.Context, op, what string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	out := &Error{Code: CodeInternal, Message: "internal error", Err: err}
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		out.Code, out.Message = CodeUnavailable, "request cancelled or timed out"
		return out // the caller went away or gave up: nothing to log
	default:
		for _, c := range errorClasses {
			if errors.Is(err, c.err) {
				out.Code, out.Message = c.code, c.message
				if c.message == "" {
					out.Message = defaultMessage(c.code, what)
				}
				break
			}
		}
	}
	level := slog.LevelWarn
	if out.Code == CodeInternal || out.Code == CodeUnavailable {
		level = slog.LevelError
	}
	if out.Code != CodeNotFound {
		s.log.Log(ctx, level, "service: "+op+" failed", "code", string(out.Code), "err", err)
	}
	return out
}

// ErrDepNotFound is errdefs.ErrNotFound under the name the service's
// fakes know.
var ErrDepNotFound = errdefs.ErrNotFound

func defaultMessage(c Code, what string) string {
	switch c {
	case CodeNotFound:
		return what + " not found"
	case CodeConflict:
		return "conflicts with the current state of the " + what
	case CodeBadRequest:
		return "invalid " + what
	case CodeUnavailable:
		return "temporarily unavailable"
	}
	return "internal error"
}
