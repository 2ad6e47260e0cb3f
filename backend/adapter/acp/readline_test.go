package acp

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// The agent's output is read through a 16 KiB buffer (docs/ARCHITECTURE.md
// §Memory): longer lines are joined, lines over the limit are skipped
// whole and the next line is read as it is.
func TestReadLineAcrossTheBuffer(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	for _, tc := range []struct {
		name  string
		input string
		max   int
		want  []string // "!" stands for errLineTooLong
	}{
		{"short lines", "a\nb\r\n", 1 << 20, []string{"a", "b"}},
		{"a line six buffers long", long + "\nz\n", 1 << 20, []string{long, "z"}},
		{"over the limit, then a line", long + "\nz\n", 50 << 10, []string{"!", "z"}},
		{"last line without newline", "a\n" + long, 1 << 20, []string{"a", long}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tc.input), 16<<10)
			var got []string
			for {
				line, err := readLine(br, tc.max)
				switch {
				case errors.Is(err, errLineTooLong):
					got = append(got, "!")
					continue
				case len(line) > 0:
					got = append(got, string(line))
				}
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d lines, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("line %d: %d bytes, want %d", i, len(got[i]), len(tc.want[i]))
				}
			}
		})
	}
}
