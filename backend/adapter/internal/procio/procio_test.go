package procio

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // longer than the read buffer
	lr := NewLineReader(strings.NewReader("a\r\n\n" + long + "\nlast"))
	var got []string
	for {
		l, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(l))
	}
	if len(got) != 4 || got[0] != "a" || got[1] != "" || got[2] != long || got[3] != "last" {
		t.Fatalf("lines %d: %q", len(got), got[0])
	}
}

func TestJSONWriterTee(t *testing.T) {
	var buf bytes.Buffer
	w := NewJSONWriter(&buf)
	var teed []string
	w.Tee = func(b []byte) { teed = append(teed, string(b)) }
	if err := w.Write(map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "{\"a\":1}\n" || len(teed) != 1 {
		t.Fatalf("%q %q", buf.String(), teed)
	}
}
