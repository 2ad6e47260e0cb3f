package changes

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

// Keep writes the snapshot's objects into the repository's own store (a
// checkpoint's ref keeps them); the default leaves no object behind.
func TestKeepWritesObjectsToTheRepository(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	gitcmdtest.Write(t, filepath.Join(repo, "a.txt"), "kept\n")
	s, err := OpenWith(ctx, repo, Options{Keep: true})
	if err != nil {
		t.Fatal(err)
	}
	sn, err := s.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got := strings.TrimSpace(gitRun(t, repo, "cat-file", "-t", sn.Tree)); got != "tree" {
		t.Errorf("the kept tree: %q", got)
	}
	if s.GitDir() != filepath.Join(repo, ".git") || s.Shadow() {
		t.Errorf("GitDir = %s, shadow %v", s.GitDir(), s.Shadow())
	}
}

// A plain folder is snapshotted into a shadow repository; it never gains
// a .git. Without a shadow it is ErrNotGit, as before.
func TestShadowSnapshotsOfAPlainFolder(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	ws, shadow := t.TempDir(), filepath.Join(t.TempDir(), "s.git")
	gitcmdtest.Write(t, filepath.Join(ws, "a.txt"), "a\n")
	gitcmdtest.Write(t, filepath.Join(ws, ".gitignore"), "skip/\n")
	gitcmdtest.Write(t, filepath.Join(ws, "skip/x"), "ignored\n")
	if _, err := OpenWith(ctx, ws, Options{}); !errors.Is(err, ErrNotGit) {
		t.Fatalf("without a shadow: %v", err)
	}
	s, err := OpenWith(ctx, ws, Options{ShadowGitDir: shadow})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := snap(t, s)
	gitcmdtest.Write(t, filepath.Join(ws, "a.txt"), "b\n")
	b := snap(t, s)
	got := between(t, s, a, b)
	if len(got) != 1 || got["a.txt"].Action != "modified" {
		t.Errorf("between: %v", keys(got))
	}
	if out := gitRun(t, ws, "--git-dir", shadow, "ls-tree", "-r", "--name-only", b.Tree); strings.Contains(out, "skip/") {
		t.Errorf("an ignored file was kept: %s", out)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git")); !os.IsNotExist(err) {
		t.Errorf("the plain folder gained a .git: %v", err)
	}
}
