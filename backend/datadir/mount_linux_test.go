package datadir

import (
	"os"
	"os/exec"
	"testing"
)

// tmpfsOrSkip mounts a tmpfs of size (e.g. "16m") for a root-only test and
// returns it with a function that remounts it read-only. CI runs the tests
// as root, where chmod cannot make a file read-only: there a read-only
// mount stands in, and a test that cannot mount fails instead of skipping.
func tmpfsOrSkip(t *testing.T, size string) (dir string, readOnly func()) {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	if os.Geteuid() != 0 {
		skip("needs root to mount a tmpfs")
	}
	dir = t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		skip("cannot mount tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	// A read-only bind mount over it: the files stay open for writing
	// through the first mount (a plain remount would be refused as busy),
	// while every path under it is read-only (EROFS), as after a remount.
	return dir, func() {
		for _, args := range [][]string{{"--bind", dir, dir}, {"-o", "remount,bind,ro", dir}} {
			if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
				t.Fatalf("read-only bind mount: %v: %s", err, out)
			}
		}
		t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	}
}
