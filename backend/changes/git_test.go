package changes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gitcmdtest.Git(t, dir, args...)
}

// open opens snapshots of ws, closed with the test.
func open(t *testing.T, ws string) *Snapshots {
	t.Helper()
	s, err := Open(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func snap(t *testing.T, s *Snapshots) Snap {
	t.Helper()
	sn, err := s.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sn
}

func between(t *testing.T, s *Snapshots, a, b Snap) map[string]run.FileChanged {
	t.Helper()
	files, err := s.Between(context.Background(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]run.FileChanged{}
	for _, f := range files {
		if _, dup := got[f.Path]; dup {
			t.Errorf("%q named twice", f.Path)
		}
		got[f.Path] = f
	}
	return got
}

// objectFiles lists the person's object store.
func objectFiles(t *testing.T, repo string) []string {
	var files []string
	filepath.WalkDir(filepath.Join(repo, ".git", "objects"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	return files
}

func TestSnapshotDiffLeavesIndexStashAndObjectsAlone(t *testing.T) {
	gitcmdtest.Need(t)
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	gitcmdtest.Write(t, filepath.Join(repo, "notes.txt"), "one\ntwo\n")
	gitcmdtest.Write(t, filepath.Join(repo, "gone.txt"), "bye\n")
	gitcmdtest.Write(t, filepath.Join(repo, ".gitignore"), "*.log\n")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-qm", "start")
	// The person's own state: a staged change and an uncommitted one, which
	// the run's diff must not include and the snapshot must not disturb.
	gitcmdtest.Write(t, filepath.Join(repo, "notes.txt"), "one\ntwo\nstaged\n")
	gitRun(t, repo, "add", "notes.txt")
	gitcmdtest.Write(t, filepath.Join(repo, "draft.txt"), "mine\n")
	indexBefore := gitRun(t, repo, "diff", "--cached", "--name-status")
	objectsBefore := objectFiles(t, repo)

	s := open(t, repo)
	before := snap(t, s)
	// The run: appends to a tracked file, creates, deletes, writes an
	// ignored log and a binary file.
	gitcmdtest.Write(t, filepath.Join(repo, "notes.txt"), "one\ntwo\nstaged\nthree\n")
	gitcmdtest.Write(t, filepath.Join(repo, "sub", "new.txt"), "fresh\n")
	os.Remove(filepath.Join(repo, "gone.txt"))
	gitcmdtest.Write(t, filepath.Join(repo, "debug.log"), "ignored\n")
	gitcmdtest.Write(t, filepath.Join(repo, "img.bin"), "\x00\x01\x02")
	after := snap(t, s)
	got := between(t, s, before, after)
	if f := got["notes.txt"]; f.Added != 1 || f.Removed != 0 || !strings.Contains(f.Diff, "+three\n") || strings.Contains(f.Diff, "+staged") {
		t.Errorf("notes.txt: %+v", f)
	}
	if f := got["img.bin"]; !f.Binary || f.Diff != "" {
		t.Errorf("img.bin: %+v", f)
	}
	want := map[string]string{"notes.txt": "modified", "sub/new.txt": "created", "gone.txt": "deleted", "img.bin": "created"}
	if len(got) != len(want) {
		t.Fatalf("files = %v, want %v", got, want)
	}
	for p, a := range want {
		if got[p].Action != a || got[p].Source != run.SourceWorkspace {
			t.Errorf("%s: %+v, want %q", p, got[p], a)
		}
	}
	if s := gitRun(t, repo, "diff", "--cached", "--name-status"); s != indexBefore {
		t.Errorf("index changed:\n%s\nwas\n%s", s, indexBefore)
	}
	if s := gitRun(t, repo, "stash", "list"); s != "" {
		t.Errorf("stash touched: %q", s)
	}
	if after := objectFiles(t, repo); len(after) != len(objectsBefore) {
		t.Errorf("the person's object store went from %d to %d files", len(objectsBefore), len(after))
	}
}

func TestBetweenKeepsToTheWorkspaceFolder(t *testing.T) {
	gitcmdtest.Need(t)
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	ws := filepath.Join(repo, "app")
	gitcmdtest.Write(t, filepath.Join(ws, "a.txt"), "a\n")
	s := open(t, ws)
	before := snap(t, s)
	gitcmdtest.Write(t, filepath.Join(ws, "a.txt"), "a\nb\n")
	gitcmdtest.Write(t, filepath.Join(repo, "outside.txt"), "x\n")
	got := between(t, s, before, snap(t, s))
	if len(got) != 1 || got["a.txt"].Added != 1 {
		t.Fatalf("files = %+v", got)
	}
}

func TestOpenOutsideGit(t *testing.T) {
	gitcmdtest.Need(t)
	if _, err := Open(context.Background(), t.TempDir()); err != ErrNotGit {
		t.Fatalf("err = %v, want ErrNotGit", err)
	}
}

// A repository that plants a program in every key and hook git could run
// (issue 21, item 1): a run's snapshots and diff run none of them, and
// still see what changed.
func TestSnapshotsRunNothingOfTheRepository(t *testing.T) {
	r := gitcmdtest.New(t)
	s := open(t, r.Dir)
	before := snap(t, s)
	gitcmdtest.Write(t, filepath.Join(r.Dir, "a.txt"), "one\ntwo\nthree\n")
	gitcmdtest.Write(t, filepath.Join(r.Dir, "c.inc"), "included, changed\n")
	gitcmdtest.Write(t, filepath.Join(r.Dir, "d.proc"), "new\n")
	got := between(t, s, before, snap(t, s))
	if ran := r.Ran(); len(ran) > 0 {
		t.Fatalf("the snapshots ran the repository's programs: %s", strings.Join(ran, ", "))
	}
	if f := got["a.txt"]; f.Added != 1 || !strings.Contains(f.Diff, "+three\n") {
		t.Errorf("a.txt: %+v", f)
	}
	if got["c.inc"].Action != "modified" || got["d.proc"].Action != "created" {
		t.Errorf("files: %+v", got)
	}
}

// Every name git allows comes back as it is (issue 21, item 9).
func TestBetweenNamesEveryFileExactly(t *testing.T) {
	gitcmdtest.Need(t)
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	names := []string{
		"plain.txt", "with space.txt", "new\nline.txt", "tab\there.txt", `quote".txt`, `back\slash.txt`,
		"esc\x1b[31m.txt", "bidi\u202etxt.exe", "dir with space/inner.txt", "trailing space ",
		"diff --git a.txt", "ünïcödé.txt",
	}
	s := open(t, repo)
	before := snap(t, s)
	for _, n := range names {
		gitcmdtest.Write(t, filepath.Join(repo, n), "x\n")
	}
	got := between(t, s, before, snap(t, s))
	if len(got) != len(names) {
		t.Errorf("%d files named, want %d: %q", len(got), len(names), keys(got))
	}
	for _, n := range names {
		f, ok := got[n]
		if !ok {
			t.Errorf("%q missing", n)
			continue
		}
		if f.Action != "created" || f.Added != 1 || !strings.HasSuffix(f.Diff, "+x\n") {
			t.Errorf("%q: %+v", n, f)
		}
	}
}

func keys(m map[string]run.FileChanged) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
