//go:build unix

package paths

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A runtime folder someone else created first (the temp dir is shared and
// the path predictable), or one others can open, is refused with a plain
// message instead of being reused.
func TestEnsureRuntimeDirRefusesForeignFolders(t *testing.T) {
	const other = 65534 // nobody
	tests := []struct {
		name  string
		setup func(t *testing.T, base, dir string)
		want  string // "" = accepted
	}{
		{"fresh", func(*testing.T, string, string) {}, ""},
		{"existing, ours, 0700", func(t *testing.T, base, dir string) { mustMkdir(t, dir, 0o700) }, ""},
		{"dir open to others", func(t *testing.T, base, dir string) { mustMkdir(t, dir, 0o755) }, "chmod 700"},
		{"parent writable by others", func(t *testing.T, base, dir string) {
			mustMkdir(t, dir, 0o700)
			os.Chmod(base, 0o777)
		}, "chmod 700"},
		{"parent readable by others", func(t *testing.T, base, dir string) {
			mustMkdir(t, dir, 0o700)
			os.Chmod(base, 0o755)
		}, ""},
		{"parent shared but sticky, like /tmp", func(t *testing.T, base, dir string) {
			mustMkdir(t, dir, 0o700)
			os.Chmod(base, 0o777|os.ModeSticky)
		}, ""},
		{"dir is a symlink", func(t *testing.T, base, dir string) {
			mustMkdir(t, base, 0o700)
			target := t.TempDir()
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, "not a plain folder"},
		{"parent owned by another user", func(t *testing.T, base, dir string) {
			chownOrSkip(t, base, other)
		}, "belongs to another user"},
		{"dir owned by another user", func(t *testing.T, base, dir string) {
			mustMkdir(t, dir, 0o700)
			chownOrSkip(t, dir, other)
		}, "belongs to another user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := filepath.Join(t.TempDir(), "hermesdesk-1000")
			dir := filepath.Join(base, "abcd1234")
			tt.setup(t, base, dir)
			err := EnsureRuntimeDir(dir)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func mustMkdir(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// chownOrSkip makes p (created if needed) belong to uid: only root can.
func chownOrSkip(t *testing.T, p string, uid int) {
	t.Helper()
	if os.Getuid() != 0 {
		// CI runs make test as root (.ci/run): there this must run.
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run as root: this test gives a folder to another user")
		}
		t.Skip("needs root to give a folder to another user")
	}
	mustMkdir(t, p, 0o700)
	if err := os.Chown(p, uid, uid); err != nil {
		t.Fatal(err)
	}
}

// An existing data dir others can read is made private; one of another
// user is refused.
func TestEnsureTightensTheDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	mustMkdir(t, dir, 0o755)
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Fatalf("data dir mode %04o, want 0700", st.Mode().Perm())
	}
	chownOrSkip(t, dir, 65534)
	if err := Ensure(dir); !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), "another user") {
		t.Fatalf("another user's data dir: %v", err)
	}
}
