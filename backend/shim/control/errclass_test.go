package control

import (
	"errors"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

// Every control code reaches callers as one errdefs class (and its own
// sentinel), translated once in responseErr.
func TestResponseCodesAreErrdefsClasses(t *testing.T) {
	for _, tc := range []struct {
		code     string
		sentinel error
		class    error
	}{
		{CodeUnauthorized, ErrRejected, errdefs.ErrConflict},
		{CodeBadRequest, ErrRejected, errdefs.ErrInvalid},
		{CodeInternal, ErrRejected, errdefs.ErrUnavailable},
		{"from_a_newer_shim", ErrRejected, errdefs.ErrUnavailable},
		{CodeDropped, ErrDropped, errdefs.ErrUnavailable},
		{CodeEnded, ErrEnded, errdefs.ErrRunTerminal},
		{CodeNotWarm, ErrNotWarm, errdefs.ErrConflict},
	} {
		err := responseErr(Response{Code: tc.code, Error: "why"})
		if !errors.Is(err, tc.sentinel) || !errors.Is(err, tc.class) {
			t.Errorf("%s: %v is not %v and %v", tc.code, err, tc.sentinel, tc.class)
		}
	}
	if err := responseErr(Response{}); err != nil {
		t.Errorf("no code: %v", err)
	}
	if !errors.Is(ErrUnreachable, errdefs.ErrUnavailable) {
		t.Error("ErrUnreachable is not unavailable")
	}
	if got := responseErr(Response{Code: CodeBadRequest, Error: "malformed request"}).Error(); got != "control: request rejected: bad_request: malformed request" {
		t.Errorf("words changed: %q", got)
	}
}
