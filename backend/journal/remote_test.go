package journal

import (
	"context"
	"path/filepath"
	"testing"
)

// A remote host's cursors survive reopening and only move forward.
func TestRemoteCursors(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host, run string
		seq       int64
	}{{"h1", "r1", 5}, {"h1", "r1", 9}, {"h1", "r1", 7}, {"h1", "r2", 3}, {"h2", "r1", 1}} {
		if err := s.SetRemoteCursor(ctx, c.host, c.run, c.seq); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if s, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.RemoteCursors(ctx, "h1")
	if err != nil || len(got) != 2 || got["r1"] != 9 || got["r2"] != 3 {
		t.Fatalf("h1's cursors %v %v, want r1:9 r2:3", got, err)
	}
	if got, _ := s.RemoteCursors(ctx, "h3"); len(got) != 0 {
		t.Fatalf("unknown host's cursors %v", got)
	}
}
