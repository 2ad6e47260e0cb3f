//go:build unix

package journal

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The journal holds transcripts: its database, WAL and shared-memory files
// are created 0600 whatever the umask, and an existing journal's looser
// files are tightened.
func TestDatabaseFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "hermesdesk.db")
	check := func(when string) {
		t.Helper()
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			if st.Mode().Perm() != 0o600 {
				t.Errorf("%s: %s mode %04o, want 0600", when, filepath.Base(p), st.Mode().Perm())
			}
		}
	}
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	newFixture(t, s) // writes: the WAL exists
	check("new journal")
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		os.Chmod(p, 0o644)
	}
	s.Close()
	os.Chmod(path, 0o644)
	s, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	newFixture(t, s)
	check("existing journal")
}
