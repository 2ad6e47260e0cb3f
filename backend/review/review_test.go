package review

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

type fixture struct {
	r        *Reviewer
	j        *journal.Store
	repo, wt string
	ws       run.Workspace
	dataDir  string
}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return gitcmdtest.Git(t, dir, args...)
}

func read(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// newFixture: main with keep.txt, edit.txt, gone.txt and a .gitignore;
// a worktree on its own branch that committed an edit, then left an
// uncommitted edit, a new file, a deletion and an ignored file; main then
// moved ahead with a change of its own (not the workspace's work).
func newFixture(t *testing.T) *fixture {
	t.Helper()
	gitcmdtest.Need(t)
	ctx := context.Background()
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	gitcmdtest.Write(t, filepath.Join(repo, "keep.txt"), "keep\n")
	gitcmdtest.Write(t, filepath.Join(repo, "edit.txt"), "one\ntwo\nthree\n")
	gitcmdtest.Write(t, filepath.Join(repo, "gone.txt"), "bye\n")
	gitcmdtest.Write(t, filepath.Join(repo, "moved.txt"), "a\nb\nc\nd\ne\nf\n")
	gitcmdtest.Write(t, filepath.Join(repo, ".gitignore"), "*.log\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "first")
	base := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD"))
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, repo, "worktree", "add", "-q", "-b", "hermesdesk/x", wt, "main")
	gitcmdtest.Write(t, filepath.Join(wt, "committed.txt"), "from the branch\n")
	git(t, wt, "add", "committed.txt")
	git(t, wt, "commit", "-q", "-m", "agent's commit")
	gitcmdtest.Write(t, filepath.Join(wt, "edit.txt"), "one\nTWO\nthree\nfour\n")
	gitcmdtest.Write(t, filepath.Join(wt, "new.txt"), "new\n")
	gitcmdtest.Write(t, filepath.Join(wt, "debug.log"), "ignored\n")
	os.Remove(filepath.Join(wt, "gone.txt"))
	os.Remove(filepath.Join(wt, "moved.txt"))
	gitcmdtest.Write(t, filepath.Join(wt, "renamed.txt"), "a\nb\nc\nd\ne\nF\n")
	gitcmdtest.Write(t, filepath.Join(repo, "keep.txt"), "main moved\n")
	git(t, repo, "commit", "-q", "-am", "main moves ahead")

	dataDir := t.TempDir()
	j, err := journal.Open(filepath.Join(dataDir, "hermesdesk.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	p, err := j.CreateProject(ctx, "p", repo)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := j.CreateWorkspace(ctx, run.Workspace{ID: "wsp_x", ProjectID: p.ID, Kind: "worktree", State: "ready",
		Path: wt, Branch: "hermesdesk/x", Base: "main", BaseCommit: base})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{r: &Reviewer{Store: j, DataDir: dataDir}, j: j, repo: repo, wt: wt, ws: ws, dataDir: dataDir}
}

func byPath(files []run.ReviewFile) map[string]run.ReviewFile {
	m := map[string]run.ReviewFile{}
	for _, f := range files {
		m[f.Path] = f
	}
	return m
}

// The review holds the branch's commits and what is uncommitted
// (tracked and untracked, not ignored) against the merge-base, not what
// main did since; the worktree's index is not touched.
func TestReviewOfAWorkspace(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	index := filepath.Join(strings.TrimSpace(git(t, f.wt, "rev-parse", "--absolute-git-dir")), "index")
	before := read(t, index)
	rv, err := f.r.Review(ctx, f.ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := byPath(rv.Files)
	want := map[string]string{"committed.txt": "added", "edit.txt": "modified", "new.txt": "added", "gone.txt": "deleted", "renamed.txt": "renamed"}
	if len(got) != len(want) {
		t.Errorf("files: %+v", rv.Files)
	}
	for p, st := range want {
		if got[p].Status != st {
			t.Errorf("%s: %+v, want %s", p, got[p], st)
		}
	}
	if e := got["edit.txt"]; e.Added != 2 || e.Removed != 1 || e.Blob == "" {
		t.Errorf("edit.txt counts: %+v", e)
	}
	if r := got["renamed.txt"]; r.OldPath != "moved.txt" || r.Added != 1 || r.Removed != 1 {
		t.Errorf("renamed.txt: %+v", r)
	}
	if got["gone.txt"].Blob != "" || got["gone.txt"].Removed != 1 {
		t.Errorf("gone.txt: %+v", got["gone.txt"])
	}
	if rv.MergeBase == "" || rv.Base != "main" {
		t.Errorf("review: %+v", rv)
	}
	if read(t, index) != before {
		t.Error("the worktree's index changed")
	}
	d, err := f.r.Diff(ctx, f.ws.ID, "edit.txt")
	if err != nil || !strings.Contains(d.Diff, "-two\n+TWO\n") || !strings.Contains(d.Diff, "+four") {
		t.Errorf("diff: %+v %v", d, err)
	}
	if _, err := f.r.Diff(ctx, f.ws.ID, "keep.txt"); err == nil {
		t.Error("a file the workspace did not change has a diff")
	}
}

// A file viewed is unviewed again once it changes.
func TestViewedUntilChanged(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if err := f.r.MarkViewed(ctx, f.ws.ID, "edit.txt", "", true); err != nil {
		t.Fatal(err)
	}
	rv, _ := f.r.Review(ctx, f.ws.ID)
	if !byPath(rv.Files)["edit.txt"].Viewed || byPath(rv.Files)["new.txt"].Viewed {
		t.Fatalf("after marking: %+v", rv.Files)
	}
	gitcmdtest.Write(t, filepath.Join(f.wt, "edit.txt"), "changed again\n")
	rv, _ = f.r.Review(ctx, f.ws.ID)
	if byPath(rv.Files)["edit.txt"].Viewed {
		t.Fatalf("a file changed since it was viewed is still viewed: %+v", rv.Files)
	}
}

// Revert puts a file back to the base's version (a file the base lacks
// is removed), through a checkpoint whose undo brings it back.
func TestRevertIsUndoable(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, c := range []struct {
		path    string
		after   string // "" = no file
		restore string
	}{
		{"edit.txt", "one\ntwo\nthree\n", "one\nTWO\nthree\nfour\n"},
		{"new.txt", "", "new\n"},
		{"gone.txt", "bye\n", ""},
	} {
		p := filepath.Join(f.wt, c.path)
		res, err := f.r.Revert(ctx, f.ws.ID, RevertRequest{Path: c.path})
		if err != nil || res.Checkpoint == nil || res.Checkpoint.Kind != checkpoints.CheckpointRevert {
			t.Fatalf("revert %s: %+v %v", c.path, res, err)
		}
		if got, err := os.ReadFile(p); (c.after == "") != os.IsNotExist(err) || (c.after != "" && string(got) != c.after) {
			t.Errorf("%s after revert: %q %v", c.path, got, err)
		}
		if _, err := checkpoints.Undo(ctx, f.j, f.dataDir, res.Checkpoint.ID); err != nil {
			t.Fatalf("undo the revert of %s: %v", c.path, err)
		}
		if got, err := os.ReadFile(p); (c.restore == "") != os.IsNotExist(err) || (c.restore != "" && string(got) != c.restore) {
			t.Errorf("%s after undo: %q %v", c.path, got, err)
		}
	}
	// A renamed file goes back under its old name; the undo moves it again.
	res, err := f.r.Revert(ctx, f.ws.ID, RevertRequest{Path: "renamed.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.wt, "renamed.txt")); !os.IsNotExist(err) || read(t, filepath.Join(f.wt, "moved.txt")) != "a\nb\nc\nd\ne\nf\n" {
		t.Errorf("after reverting the rename: %v", err)
	}
	if _, err := checkpoints.Undo(ctx, f.j, f.dataDir, res.Checkpoint.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.wt, "moved.txt")); !os.IsNotExist(err) || read(t, filepath.Join(f.wt, "renamed.txt")) != "a\nb\nc\nd\ne\nF\n" {
		t.Errorf("after undoing it: %v", err)
	}
	if read(t, filepath.Join(f.wt, "debug.log")) != "ignored\n" {
		t.Error("the ignored file changed")
	}
	if _, err := f.r.Revert(ctx, f.ws.ID, RevertRequest{Path: "keep.txt"}); err == nil {
		t.Error("a file the workspace did not change was reverted")
	}
}

// Comments: a draft is journaled, edited, deleted; bad input is refused
// in words; a send with nobody to send to is refused and the drafts stay.
func TestCommentDrafts(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	c, err := f.r.AddComment(ctx, f.ws.ID, CommentRequest{Path: "edit.txt", Side: "new", Line: 2, Quote: "TWO", Text: "lower case"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.r.AddComment(ctx, f.ws.ID, CommentRequest{Path: "edit.txt", Side: "new", Line: 0, Text: "x"}); err == nil {
		t.Error("line 0 was accepted")
	} else if rf, ok := IsRefusal(err); !ok || !strings.Contains(rf.Reason, "line") {
		t.Errorf("refusal: %v", err)
	}
	if c, err = f.r.EditComment(ctx, f.ws.ID, c.ID, "keep it upper case"); err != nil || c.Text != "keep it upper case" {
		t.Fatalf("edit: %+v %v", c, err)
	}
	if _, err := f.r.Send(ctx, f.ws.ID, SendRequest{}); err == nil || !strings.Contains(err.Error(), "no session") {
		t.Errorf("send without a session: %v", err)
	}
	rv, _ := f.r.Review(ctx, f.ws.ID)
	if len(rv.Comments) != 1 || rv.Comments[0].State != run.CommentDraft {
		t.Fatalf("comments: %+v", rv.Comments)
	}
	if err := f.r.DeleteComment(ctx, f.ws.ID, c.ID); err != nil {
		t.Fatal(err)
	}
	if rv, _ = f.r.Review(ctx, f.ws.ID); len(rv.Comments) != 0 {
		t.Errorf("after delete: %+v", rv.Comments)
	}
}
