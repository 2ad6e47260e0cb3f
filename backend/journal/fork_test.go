package journal

import (
	"errors"
	"testing"
)

// A forked session's native fork is kept apart from the session and read
// back; an unknown session is not found.
func TestSessionFork(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	id := f.sub.Run.SessionID
	if got, err := s.SessionFork(ctx, id); err != nil || got != "" {
		t.Fatalf("a session not forked: %q, %v", got, err)
	}
	if err := s.SetSessionFork(ctx, id, `{"from":"n","turns":1}`); err != nil {
		t.Fatal(err)
	}
	if got, err := s.SessionFork(ctx, id); err != nil || got != `{"from":"n","turns":1}` {
		t.Fatalf("fork = %q, %v", got, err)
	}
	if err := s.SetSessionFork(ctx, "ses_nope", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown session: %v", err)
	}
	if _, err := s.SessionFork(ctx, "ses_nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown session: %v", err)
	}
}
