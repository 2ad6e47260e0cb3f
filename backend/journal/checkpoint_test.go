package journal

import (
	"os"
	"strings"
	"testing"

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
