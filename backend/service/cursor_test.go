package service

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseCursor(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"", 0},
		{"42", 42},
		{" 7 ", 7},
		{"run_1:42", 42},
		{"run_2:42", 0}, // another run's id: from the start
		{"run_1:", 0},
		{"run_1:-3", 0},
		{"-3", 0},
		{"4x", 0},
		{"run_1:1:2", 0},
		{"99999999999999999999", 0},
		{":5", 0},
	}
	for _, tt := range tests {
		if got := ParseCursor("run_1", tt.in); got != tt.want {
			t.Errorf("ParseCursor(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// Any input parses without panic to a non-negative cursor, and an event id
// of this run round-trips while one of another run replays from the start.
func FuzzParseCursor(f *testing.F) {
	for _, s := range []string{"", "1", "run_1:5", "run_2:5", "-1", "a:b:c", "run_1:9223372036854775807"} {
		f.Add("run_1", s, int64(5))
	}
	f.Fuzz(func(t *testing.T, runID, c string, n int64) {
		if got := ParseCursor(runID, c); got < 0 {
			t.Fatalf("negative cursor %d from %q", got, c)
		}
		if n < 0 || strings.TrimSpace(runID) != runID {
			return
		}
		id := runID + ":" + strconv.FormatInt(n, 10)
		if got := ParseCursor(runID, id); got != n {
			t.Fatalf("ParseCursor(%q, %q) = %d, want %d", runID, id, got, n)
		}
		if got := ParseCursor(runID+"x", id); got != 0 {
			t.Fatalf("another run's id %q gave %d, want 0", id, got)
		}
	})
}
