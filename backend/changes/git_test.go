package changes

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSnapshotDiffLeavesIndexAndStashAlone(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	write(t, filepath.Join(repo, "notes.txt"), "one\ntwo\n")
	write(t, filepath.Join(repo, "gone.txt"), "bye\n")
	write(t, filepath.Join(repo, ".gitignore"), "*.log\n")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-qm", "start")
	// The person's own state: a staged change and an uncommitted one, which
	// the run's diff must not include and the snapshot must not disturb.
	write(t, filepath.Join(repo, "notes.txt"), "one\ntwo\nstaged\n")
	gitRun(t, repo, "add", "notes.txt")
	write(t, filepath.Join(repo, "draft.txt"), "mine\n")
	indexBefore := gitRun(t, repo, "diff", "--cached", "--name-status")
	statusBefore := gitRun(t, repo, "status", "--porcelain")

	before, err := Snapshot(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	// The run: appends to a tracked file, creates, deletes, writes an
	// ignored log and a binary file.
	write(t, filepath.Join(repo, "notes.txt"), "one\ntwo\nstaged\nthree\n")
	write(t, filepath.Join(repo, "sub", "new.txt"), "fresh\n")
	os.Remove(filepath.Join(repo, "gone.txt"))
	write(t, filepath.Join(repo, "debug.log"), "ignored\n")
	write(t, filepath.Join(repo, "img.bin"), "\x00\x01\x02")
	after, err := Snapshot(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Between(ctx, repo, before, after)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		got[f.Path] = f.Action
		switch f.Path {
		case "notes.txt":
			if f.Added != 1 || f.Removed != 0 || !strings.Contains(f.Diff, "+three\n") || strings.Contains(f.Diff, "+staged") {
				t.Errorf("notes.txt: %+v", f)
			}
		case "img.bin":
			if !f.Binary || f.Diff != "" {
				t.Errorf("img.bin: %+v", f)
			}
		}
	}
	want := map[string]string{"notes.txt": "modified", "sub/new.txt": "created", "gone.txt": "deleted", "img.bin": "created"}
	if len(got) != len(want) {
		t.Fatalf("files = %v, want %v", got, want)
	}
	for p, a := range want {
		if got[p] != a {
			t.Errorf("%s: %q, want %q", p, got[p], a)
		}
	}
	if s := gitRun(t, repo, "diff", "--cached", "--name-status"); s != indexBefore {
		t.Errorf("index changed:\n%s\nwas\n%s", s, indexBefore)
	}
	if s := gitRun(t, repo, "stash", "list"); s != "" {
		t.Errorf("stash touched: %q", s)
	}
	_ = statusBefore
}

func TestBetweenKeepsToTheWorkspaceFolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	ws := filepath.Join(repo, "app")
	write(t, filepath.Join(ws, "a.txt"), "a\n")
	before, err := Snapshot(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(ws, "a.txt"), "a\nb\n")
	write(t, filepath.Join(repo, "outside.txt"), "x\n")
	after, _ := Snapshot(ctx, ws)
	files, err := Between(ctx, ws, before, after)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "a.txt" || files[0].Added != 1 {
		t.Fatalf("files = %+v", files)
	}
}

func TestSnapshotOutsideGit(t *testing.T) {
	if _, err := Snapshot(context.Background(), t.TempDir()); err != ErrNotGit {
		t.Fatalf("err = %v, want ErrNotGit", err)
	}
}
