package journal

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Checkpoint gives a large run's WAL back: the file is truncated, not just
// marked reusable as PASSIVE checkpoints leave it.
func TestCheckpointTruncatesTheWAL(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	text := strings.Repeat("y", 4000)
	for range 2000 {
		w.Append(run.EventTokenDelta, run.TextDelta{Text: text})
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(s.Path() + "-wal")
	if err != nil || st.Size() < 1<<20 {
		t.Fatalf("WAL after 8 MB of events: %v %v", st, err)
	}
	if err := s.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(s.Path() + "-wal"); err != nil || st.Size() != 0 {
		t.Fatalf("WAL after Checkpoint: %d bytes, %v", st.Size(), err)
	}
	w.Close()
}

// Passive checkpoints follow commits: one checkpointEvery after a small
// commit and not before, one as soon as ~4 MB were written whatever the
// timer; none while nothing is written (an idle store has no timer at all:
// docs/ARCHITECTURE.md §Idle).
func TestPassiveCheckpointsFollowCommits(t *testing.T) {
	for _, c := range []struct {
		name  string
		wait  time.Duration // the timer; 0: checkpointEvery
		count int
		text  string
	}{
		{"small, after the timer", 0, 1, "small"},
		{"4.8 MB, at once", time.Hour, 1200, strings.Repeat("y", 4000)},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := openTest(t, Options{})
			f := newFixture(t, s)
			ctx := ctxT(t)
			done := make(chan time.Time, 16)
			hook := func() { done <- time.Now() }
			s.checkpointed.Store(&hook)
			s.checkpointWait.Store(int64(c.wait))
			w := f.writer(t, f.sub.Run.ID)
			defer w.Close()
			start := time.Now()
			for range c.count {
				w.Append(run.EventTokenDelta, run.TextDelta{Text: c.text})
			}
			if err := w.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			select {
			case at := <-done:
				if c.wait == 0 && at.Sub(start) < checkpointEvery-100*time.Millisecond {
					t.Fatalf("a small commit was checkpointed after %v, before checkpointEvery (%v)", at.Sub(start), checkpointEvery)
				}
			case <-ctx.Done():
				t.Fatal("never checkpointed")
			}
		})
	}
}

// A forked session's handover is kept apart from the session and read
// back; an unknown session is not found.
func TestSessionHandover(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	id := f.sub.Run.SessionID
	if got, err := s.SessionHandover(ctx, id); err != nil || got != "" {
		t.Fatalf("a session not forked: %q, %v", got, err)
	}
	if err := s.SetSessionHandover(ctx, id, "User: before\n\n"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.SessionHandover(ctx, id); err != nil || got != "User: before\n\n" {
		t.Fatalf("handover = %q, %v", got, err)
	}
	if err := s.SetSessionHandover(ctx, "ses_nope", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown session: %v", err)
	}
	if _, err := s.SessionHandover(ctx, "ses_nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown session: %v", err)
	}
}
