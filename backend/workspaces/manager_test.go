package workspaces

import (
	"bytes"
	"context"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCreateArchiveRestoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	write(t, repo, ".git/info/exclude", "# mine\n*.swp", 0o644)
	m := newManager(t, st)

	w, err := m.Create(ctx, p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	names, _ := NamesFor(repo, w.ID, "")
	if w.State != StateReady || w.Path != names.Path || w.Branch != names.Branch || w.Base != "main" {
		t.Fatalf("created %+v", w)
	}
	if list := git(t, repo, "worktree", "list", "--porcelain"); !strings.Contains(list, "locked hermesdesk "+w.ID) {
		t.Fatalf("not locked with our reason:\n%s", list)
	}
	ex, _ := os.ReadFile(filepath.Join(repo, ".git/info/exclude"))
	if !strings.HasPrefix(string(ex), "# mine\n*.swp\n") || !strings.Contains(string(ex), "/.worktrees/") {
		t.Fatalf("exclude file: %q", ex)
	}
	if s := git(t, repo, "status", "--porcelain"); s != "" {
		t.Fatalf("the main checkout sees the worktree: %q", s)
	}

	// Work in the worktree: every kind of file.
	wt := w.Path
	write(t, wt, "a.txt", "alpha changed\n", 0o644)
	os.Remove(filepath.Join(wt, "gone.txt"))
	write(t, wt, "new/untracked.txt", "untracked\x00binary\n", 0o600)
	write(t, wt, "tool.sh", "#!/bin/sh\n", 0o755)
	os.Chmod(filepath.Join(wt, "run.sh"), 0o644)
	os.Symlink("a.txt", filepath.Join(wt, "link"))
	write(t, wt, "debug.log", "ignored\n", 0o644)
	write(t, wt, ".env", "SECRET=1\n", 0o600)
	write(t, wt, "node_modules/x/index.js", "module\n", 0o644)
	git(t, wt, "add", "a.txt") // something staged in the worktree's own index
	before := tree(t, wt)
	mainIndex, _ := os.ReadFile(filepath.Join(repo, ".git/index"))

	w, err = m.Archive(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if w.State != StateArchived || w.ArchivedAt == nil {
		t.Fatalf("archived %+v", w)
	}
	if _, err := os.Lstat(wt); !os.IsNotExist(err) {
		t.Fatalf("worktree folder still there: %v", err)
	}
	if git(t, repo, "rev-parse", "--verify", "-q", names.Ref) == "" {
		t.Fatal("branch not kept")
	}
	if git(t, repo, "rev-parse", "--verify", "-q", names.ArchiveRef) == "" {
		t.Fatal("no archive ref")
	}
	if after, _ := os.ReadFile(filepath.Join(repo, ".git/index")); !bytes.Equal(after, mainIndex) {
		t.Fatal("the main checkout's index changed")
	}
	if s := git(t, repo, "status", "--porcelain"); s != "" {
		t.Fatalf("the main checkout sees the archive: %q", s)
	}

	w, err = m.Restore(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	// No note: on a ready workspace the window shows one as trouble.
	if w.State != StateReady || w.ArchivedAt != nil || w.Note != "" {
		t.Fatalf("restored %+v", w)
	}
	if got := tree(t, wt); !reflect.DeepEqual(got, before) {
		t.Fatalf("files differ after restore:\n got %v\nwant %v", got, before)
	}
	if b := git(t, wt, "symbolic-ref", "--short", "HEAD"); b != names.Branch {
		t.Fatalf("restored on %q", b)
	}
	if list := git(t, repo, "worktree", "list", "--porcelain"); !strings.Contains(list, "locked hermesdesk "+w.ID) {
		t.Fatalf("not locked again:\n%s", list)
	}
	if _, err := os.Lstat(filepath.Join(repo, WorktreesDir, archivedDir, names.Slug)); !os.IsNotExist(err) {
		t.Fatalf("the ignored files' stash is still there: %v", err)
	}
}

func TestCreateRefusals(t *testing.T) {
	ctx := context.Background()
	plain := t.TempDir()
	bare := t.TempDir()
	git(t, bare, "init", "-q", "--bare")
	unborn := t.TempDir()
	git(t, unborn, "init", "-q", "-b", "main")
	detached := newRepo(t)
	git(t, detached, "checkout", "-q", "--detach")
	for _, tc := range []struct {
		name, dir, base, want string
	}{
		{"not a repository", plain, "", "not a git repository"},
		{"bare", bare, "", "bare"},
		{"unborn", unborn, "", "no commit yet"},
		{"detached", detached, "", "detached HEAD"},
		{"base missing", newRepo(t), "nope", `"nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), tc.dir)
			_, err := newManager(t, st).Create(ctx, p.ID, tc.base)
			if !IsRefused(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a refusal saying %q", err, tc.want)
			}
			if ws, _ := st.ListWorkspaces(ctx, ""); len(ws) != 0 {
				t.Fatalf("recorded %+v", ws)
			}
			if _, err := os.Stat(filepath.Join(tc.dir, WorktreesDir)); !os.IsNotExist(err) {
				t.Fatal("made a worktrees folder")
			}
		})
	}
	// A detached checkout with a base chosen is fine.
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), detached)
	if _, err := newManager(t, st).Create(ctx, p.ID, "main"); err != nil {
		t.Fatal(err)
	}
}

func TestArchiveRefusals(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	js, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	st := &liveStore{Store: js}
	m := newManager(t, st)
	w, err := m.Create(ctx, p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	write(t, w.Path, "work.txt", "keep me\n", 0o644)
	refuse := func(want string) {
		t.Helper()
		got, err := m.Archive(ctx, w.ID)
		if !IsRefused(err) || !strings.Contains(err.Error(), want) {
			t.Fatalf("got %v, want a refusal saying %q", err, want)
		}
		if got.State != StateReady {
			t.Fatalf("state %s", got.State)
		}
		if data, err := os.ReadFile(filepath.Join(w.Path, "work.txt")); err != nil || string(data) != "keep me\n" {
			t.Fatalf("the worktree was touched: %q %v", data, err)
		}
	}
	st.live = true
	refuse("run is still working")
	st.live = false

	git(t, repo, "worktree", "unlock", w.Path)
	git(t, repo, "worktree", "lock", "--reason", "mine", w.Path)
	refuse("someone else")
	git(t, repo, "worktree", "unlock", w.Path)
	refuse("not locked by Hermes Desk")
	git(t, repo, "worktree", "lock", "--reason", "hermesdesk "+w.ID, w.Path)
	if _, err := m.Archive(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
}

func TestCheckNoticesChangesOutsideTheApp(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	m := newManager(t, st)
	a, _ := m.Create(ctx, p.ID, "")
	b, _ := m.Create(ctx, p.ID, "")
	git(t, repo, "worktree", "unlock", a.Path)
	git(t, repo, "worktree", "lock", "--reason", "someone", a.Path)
	git(t, repo, "worktree", "unlock", b.Path)
	git(t, repo, "worktree", "remove", "--force", b.Path)
	if err := m.RecoverAll(ctx); err != nil {
		t.Fatal(err)
	}
	a, _ = st.GetWorkspace(ctx, a.ID)
	b, _ = st.GetWorkspace(ctx, b.ID)
	if a.State != StateReady || !strings.Contains(a.Note, "locked again outside Hermes Desk") {
		t.Fatalf("re-locked: %+v", a)
	}
	if b.State != StateGone || !strings.Contains(b.Note, "deleted or moved outside Hermes Desk") {
		t.Fatalf("removed: %+v", b)
	}
}

func TestPruneDropsOnlyOldArchives(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	m := newManager(t, st)
	var made []run.Workspace
	for range 3 {
		w, err := m.Create(ctx, p.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, w)
	}
	old, recent, live := made[0], made[1], made[2]
	for _, w := range []string{old.ID, recent.ID} {
		if _, err := m.Archive(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	// Pretend the first was archived 31 days ago — once the setup steps
	// the creations started have recorded themselves, or one would write
	// its read of the workspace back over this (a flaky run).
	m.Wait()
	old, err := st.GetWorkspace(ctx, old.ID)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-31 * 24 * time.Hour)
	old.ArchivedAt = &at
	if _, err := st.UpdateWorkspace(ctx, old); err != nil {
		t.Fatal(err)
	}

	n, err := m.Prune(ctx, time.Now())
	if err != nil || n != 1 {
		t.Fatalf("pruned %d, %v", n, err)
	}
	on, _ := NamesFor(repo, old.ID, "")
	rn, _ := NamesFor(repo, recent.ID, "")
	if out := git(t, repo, "for-each-ref", on.ArchiveRef); out != "" {
		t.Fatalf("old archive kept: %s", out)
	}
	if out := git(t, repo, "for-each-ref", rn.ArchiveRef); out == "" {
		t.Fatal("recent archive dropped")
	}
	if out := git(t, repo, "for-each-ref", on.Ref); out == "" {
		t.Fatal("old workspace's branch dropped")
	}
	if _, err := os.Stat(live.Path); err != nil {
		t.Fatalf("live worktree touched: %v", err)
	}
}

func TestDetail(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	m := newManager(t, st)
	w, err := m.Create(ctx, p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	m.Wait()
	write(t, w.Path, "new.txt", "12345", 0o644)
	write(t, w.Path, "a.txt", "changed\n", 0o644)
	git(t, w.Path, "add", "a.txt")
	git(t, w.Path, "commit", "-q", "-m", "on the branch")
	write(t, repo, "main.txt", "main moves\n", 0o644)
	git(t, repo, "add", "main.txt")
	git(t, repo, "commit", "-q", "-m", "main 1")
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "main 2")
	d, err := m.Detail(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Changed != 1 || d.Ahead != 1 || d.Behind != 2 || d.SizeBytes < 5 || d.Branch != w.Branch {
		t.Fatalf("%+v", d)
	}
}

// With the data dir as the location (setting workspaces.location "data")
// the worktree is made there, the repository's exclude file is left
// alone, and archive, restore and recovery work on the recorded path.
func TestDataDirLocation(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	root := filepath.Join(t.TempDir(), "worktrees")
	m := newManager(t, st)
	m.NoSetup = true
	m.DataRoot = func(context.Context) string { return root }
	w, err := m.Create(ctx, p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	names, _ := NamesFor(repo, w.ID, root)
	if w.State != StateReady || w.Path != names.Path || !strings.HasPrefix(w.Path, root+string(filepath.Separator)) {
		t.Fatalf("created %+v, want under %s", w, root)
	}
	if ex, _ := os.ReadFile(filepath.Join(repo, ".git/info/exclude")); strings.Contains(string(ex), WorktreesDir) {
		t.Fatalf("exclude file touched: %q", ex)
	}
	if _, err := os.Stat(filepath.Join(repo, WorktreesDir)); err == nil {
		t.Fatal("a .worktrees folder was made in the repository")
	}

	write(t, w.Path, "a.txt", "changed\n", 0o644)
	write(t, w.Path, "debug.log", "ignored\n", 0o644)
	before := tree(t, w.Path)
	// The setting changes meanwhile: the row's path still decides.
	m.DataRoot = nil
	if w, err = m.Archive(ctx, w.ID); err != nil || w.State != StateArchived {
		t.Fatalf("archive: %+v %v", w, err)
	}
	if _, err := os.Stat(w.Path); err == nil {
		t.Fatal("the worktree's folder is still there")
	}
	if _, err := os.Stat(filepath.Join(root, filepath.Base(filepath.Dir(w.Path)), archivedDir, filepath.Base(w.Path), "debug.log")); err != nil {
		t.Fatalf("the ignored file was not moved aside in the data dir: %v", err)
	}
	if w, err = m.Restore(ctx, w.ID); err != nil || w.State != StateReady {
		t.Fatalf("restore: %+v %v", w, err)
	}
	if after := tree(t, w.Path); !reflect.DeepEqual(before, after) {
		t.Fatalf("restored files differ:\n%v\n%v", before, after)
	}

	// Recovery: a row left "created" (unlocked) is finished at its path.
	git(t, repo, "worktree", "unlock", w.Path)
	w.State = StateCreated
	if _, err := st.UpdateWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := m.RecoverAll(ctx); err != nil {
		t.Fatal(err)
	}
	w, _ = st.GetWorkspace(ctx, w.ID)
	if w.State != StateReady || !strings.Contains(git(t, repo, "worktree", "list", "--porcelain"), "locked hermesdesk "+w.ID) {
		t.Fatalf("recovered %+v", w)
	}
}
