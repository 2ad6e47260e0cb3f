package history

import (
	"bytes"
	"errors"
	"testing"
)

// No file makes the fork point search panic: it finds a point or says
// there is none.
func FuzzClaudeForkPoint(f *testing.F) {
	seedLines(f, "testdata/claude/projects/*/*.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		for turns := 1; turns <= 2; turns++ {
			at, err := claudeForkPoint(bytes.NewReader(bytes.Repeat(append(b, '\n'), 3)), turns, "")
			if err != nil && !errors.Is(err, ErrNoForkPoint) {
				t.Fatalf("an error of another kind: %v", err)
			}
			if err == nil && at == "" {
				t.Fatal("a fork point without an id")
			}
		}
	})
}
