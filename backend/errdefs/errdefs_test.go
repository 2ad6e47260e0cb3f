package errdefs

import (
	"errors"
	"fmt"
	"testing"
)

func TestClasses(t *testing.T) {
	for _, tc := range []struct {
		err   error
		class error
		want  bool
	}{
		{ErrDiskFull, ErrUnavailable, true},
		{ErrReadOnly, ErrUnavailable, true},
		{ErrClosed, ErrUnavailable, true},
		{fmt.Errorf("journal: append: %w", ErrDiskFull), ErrUnavailable, true},
		{fmt.Errorf("journal: append: %w", ErrDiskFull), ErrDiskFull, true},
		{ErrDiskFull, ErrReadOnly, false},
		{ErrNotFound, ErrConflict, false},
		{ErrRunTerminal, ErrConflict, false},
		{fmt.Errorf("run r1: %w", ErrNotFound), ErrNotFound, true},
	} {
		if got := errors.Is(tc.err, tc.class); got != tc.want {
			t.Errorf("errors.Is(%q, %q) = %v, want %v", tc.err, tc.class, got, tc.want)
		}
	}
}
