// Package tmpfs gives fault tests a small real filesystem to fill up or
// make read-only: a tmpfs mounted for one test (root only). CI runs the
// tests as root (.ci/run), so there a test that cannot mount fails instead
// of skipping — a skip would hide the disk-full and read-only tests.
package tmpfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// Mount mounts a tmpfs of size (e.g. "4m") on a temp dir for the test and
// unmounts it at cleanup.
func Mount(t testing.TB, size string) string {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	if os.Geteuid() != 0 {
		skip("needs root to mount a tmpfs")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		skip("cannot mount tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// ReadOnly makes every path under dir read-only (EROFS) with a read-only
// bind mount over it: files already open for writing through the first
// mount stay open (a plain remount would be refused as busy). As root,
// chmod cannot make a file read-only; this stands in.
func ReadOnly(t testing.TB, dir string) {
	t.Helper()
	for _, args := range [][]string{{"--bind", dir, dir}, {"-o", "remount,bind,ro", dir}} {
		if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
			t.Fatalf("read-only bind mount: %v: %s", err, out)
		}
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
}

// Fill allocates all but 1 MB of the free space under dir.
func Fill(t testing.TB, dir string) {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail) * int64(st.Bsize)
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Fallocate(int(f.Fd()), 0, 0, free-(1<<20)); err != nil {
		t.Fatal(err)
	}
}
