package app

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestSplitDropped(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "gone")
	cases := []struct {
		in, files, other []string
	}{
		{nil, nil, nil},
		{[]string{f}, []string{f}, nil},
		{[]string{dir, f, gone}, []string{f}, []string{dir, gone}},
		// A dropped web link has no local path: Wails passes "".
		{[]string{""}, nil, nil},
	}
	for _, c := range cases {
		files, other := splitDropped(c.in)
		if !reflect.DeepEqual(files, c.files) || !reflect.DeepEqual(other, c.other) {
			t.Errorf("splitDropped(%q) = %q, %q; want %q, %q", c.in, files, other, c.files, c.other)
		}
	}
}
