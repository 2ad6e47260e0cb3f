package datadir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		// break damages the data folder dir (database db) after Open.
		breakIt func(t *testing.T, g *Guard, dir, db string)
		want    error
	}{
		{"healthy", func(*testing.T, *Guard, string, string) {}, nil},
		{"data folder deleted", func(t *testing.T, _ *Guard, dir, _ string) {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}, ErrGone},
		{"data folder replaced", func(t *testing.T, _ *Guard, dir, db string) {
			os.RemoveAll(dir)
			os.MkdirAll(dir, 0o700)
			os.WriteFile(db, nil, 0o600)
		}, ErrGone},
		{"database replaced", func(t *testing.T, _ *Guard, _, db string) {
			os.Remove(db)
			os.WriteFile(db, nil, 0o600)
		}, ErrGone},
		{"database read-only", func(t *testing.T, _ *Guard, _, db string) {
			os.Chmod(db, 0o400)
		}, ErrReadOnly},
		{"WAL read-only", func(t *testing.T, _ *Guard, _, db string) {
			os.WriteFile(db+"-wal", nil, 0o400)
		}, ErrReadOnly},
		{"folder read-only", func(t *testing.T, _ *Guard, dir, _ string) {
			os.Chmod(dir, 0o500)
			t.Cleanup(func() { os.Chmod(dir, 0o700) })
		}, ErrReadOnly},
		{"disk full", func(t *testing.T, g *Guard, _, _ string) {
			g.minFree = 1 << 62
		}, ErrDiskFull},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			var remountRO func()
			if tc.want == ErrReadOnly && os.Geteuid() == 0 {
				// Root writes read-only files: a read-only mount it is.
				parent, remountRO = tmpfsOrSkip(t, "4m")
			}
			dir := filepath.Join(parent, "data")
			db := filepath.Join(dir, "hermesdesk.db")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(db, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			// The journal holds the database open while it runs.
			f, err := os.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			g, err := Open(dir, db)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			if remountRO != nil {
				remountRO()
			} else {
				tc.breakIt(t, g, dir, db)
			}
			err = g.Check()
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("Check() = %v, want %v", err, tc.want)
			}
			if msg, ok := Message(err); tc.want != nil && (!ok || msg == "") {
				t.Fatalf("Message = %q, %v", msg, ok)
			}
		})
	}
}
