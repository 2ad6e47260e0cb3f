package checkpoints

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// agentEdits changes a workspace the way a run might: an edit, a new file
// in a new folder, a deletion, a mode change, a retargeted symlink, a
// binary file rewritten.
func agentEdits(t *testing.T, ws string) {
	put(t, filepath.Join(ws, "a.txt"), "one\nTWO\nthree\n", 0o644)
	put(t, filepath.Join(ws, "new/dir/n.txt"), "new file\n", 0o644)
	os.Remove(filepath.Join(ws, "gone.txt"))
	os.Chmod(filepath.Join(ws, "run.sh"), 0o755)
	os.Remove(filepath.Join(ws, "link"))
	os.Symlink("b.txt", filepath.Join(ws, "link"))
	put(t, filepath.Join(ws, "bin.dat"), "\x00\x01\x02changed", 0o644)
}

func seed(t *testing.T, ws string) {
	put(t, filepath.Join(ws, "a.txt"), "one\ntwo\nthree\n", 0o644)
	put(t, filepath.Join(ws, "b.txt"), "b\n", 0o644)
	put(t, filepath.Join(ws, "gone.txt"), "to be deleted\n", 0o644)
	put(t, filepath.Join(ws, "run.sh"), "#!/bin/sh\n", 0o644)
	put(t, filepath.Join(ws, "bin.dat"), "\x00\x01\x02", 0o644)
	put(t, filepath.Join(ws, ".gitignore"), "ignored/\n", 0o644)
	put(t, filepath.Join(ws, "ignored/cache"), "not kept", 0o644)
	os.Symlink("a.txt", filepath.Join(ws, "link"))
}

func TestUndoRoundTripInAGitProject(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	personsProject(t, ws)
	state := func() string {
		return git(t, ws, "diff", "--cached", "--raw") + "|" + git(t, ws, "rev-parse", "HEAD") + "|" +
			git(t, ws, "stash", "list") + "|" + git(t, ws, "for-each-ref", "refs/heads", "refs/tags")
	}
	personBefore := state()
	before := tree(t, ws)

	k := runAround(t, l, data, ws, "run_1", func() { agentEdits(t, ws) })
	after := tree(t, ws)
	if k.Record().Shadow || k.Record().Before == "" || k.Record().After == "" {
		t.Fatalf("record: %+v", k.Record())
	}
	if got := git(t, ws, "rev-parse", "refs/hermesdesk/checkpoints/ses_1/turn_run_1"); strings.TrimSpace(got) != k.Record().Before {
		t.Errorf("the checkpoint's ref: %s", got)
	}

	res, err := Undo(ctx, l, data, "cp_run_1")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "files after the undo", tree(t, ws), before)
	if got := state(); got != personBefore {
		t.Errorf("the person's index, HEAD, stash or branches moved:\n%s\nwas\n%s", got, personBefore)
	}
	if _, err := os.Stat(filepath.Join(ws, "new")); !os.IsNotExist(err) {
		t.Errorf("the folder the run made is still there: %v", err)
	}
	// Undone again: nothing to do, nothing recorded.
	if again, err := Undo(ctx, l, data, "cp_run_1"); err != nil || again.Checkpoint != nil {
		t.Errorf("a second undo = %+v, %v", again, err)
	}
	// The undo is undoable: undoing it puts the run's changes back.
	if _, err := Undo(ctx, l, data, res.Checkpoint.ID); err != nil {
		t.Fatal(err)
	}
	same(t, "files after undoing the undo", tree(t, ws), after)
	if got := state(); got != personBefore {
		t.Errorf("the person's state moved on redo")
	}
}

func TestUndoRoundTripInAPlainFolder(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	seed(t, ws)
	before := tree(t, ws)
	k := runAround(t, l, data, ws, "run_1", func() { agentEdits(t, ws) })
	if !k.Record().Shadow || !strings.HasPrefix(k.Record().GitDir, data) {
		t.Fatalf("a plain folder's checkpoint is not in the data dir: %+v", k.Record())
	}
	if _, err := os.Stat(filepath.Join(ws, ".git")); !os.IsNotExist(err) {
		t.Fatalf("the plain folder gained a .git: %v", err)
	}
	if _, err := Undo(ctx, l, data, "cp_run_1"); err != nil {
		t.Fatal(err)
	}
	same(t, "files after the undo", tree(t, ws), before)
	if _, err := os.Stat(filepath.Join(ws, ".git")); !os.IsNotExist(err) {
		t.Fatalf("the plain folder gained a .git: %v", err)
	}
}

func TestUndoStopsWhereLaterEditsTouchTheSameLines(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	put(t, filepath.Join(ws, "a.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n9\n", 0o644)
	put(t, filepath.Join(ws, "b.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n9\n", 0o644)
	put(t, filepath.Join(ws, "c.txt"), "c\n", 0o644)
	runAround(t, l, data, ws, "run_1", func() {
		put(t, filepath.Join(ws, "a.txt"), "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n", 0o644)
		put(t, filepath.Join(ws, "b.txt"), "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n", 0o644)
		put(t, filepath.Join(ws, "c.txt"), "C\n", 0o644)
	})
	// Since the run: a.txt edited on the same line, b.txt far from it,
	// c.txt deleted.
	put(t, filepath.Join(ws, "a.txt"), "1\nTwo!\n3\n4\n5\n6\n7\n8\n9\n", 0o644)
	put(t, filepath.Join(ws, "b.txt"), "1\nTWO\n3\n4\n5\n6\n7\n8\nNINE\n", 0o644)
	os.Remove(filepath.Join(ws, "c.txt"))
	was := tree(t, ws)
	_, err := Undo(ctx, l, data, "cp_run_1")
	var ce *ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, errdefs.ErrConflict) {
		t.Fatalf("Undo = %v, want a ConflictError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "a.txt") || !strings.Contains(msg, "c.txt") || strings.Contains(msg, "b.txt") {
		t.Errorf("the conflict names the wrong files: %s", msg)
	}
	same(t, "nothing changed", tree(t, ws), was)

	// With a.txt and c.txt as the run left them, b.txt merges.
	put(t, filepath.Join(ws, "a.txt"), "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n", 0o644)
	put(t, filepath.Join(ws, "c.txt"), "C\n", 0o644)
	if _, err := Undo(ctx, l, data, "cp_run_1"); err != nil {
		t.Fatal(err)
	}
	got := tree(t, ws)
	if got["b.txt"] != "-rw-r--r--:1\n2\n3\n4\n5\n6\n7\n8\nNINE\n" || got["a.txt"] != "-rw-r--r--:1\n2\n3\n4\n5\n6\n7\n8\n9\n" || got["c.txt"] != "-rw-r--r--:c\n" {
		t.Errorf("after the merged undo: %q", got)
	}
}

func TestRestorePreviewsThenKeepsFilesCreatedSince(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	put(t, filepath.Join(ws, "a.txt"), "a\n", 0o644)
	before := tree(t, ws)
	runAround(t, l, data, ws, "run_1", func() { put(t, filepath.Join(ws, "a.txt"), "A1\n", 0o644) })
	runAround(t, l, data, ws, "run_2", func() {
		put(t, filepath.Join(ws, "a.txt"), "A2\n", 0o644)
		put(t, filepath.Join(ws, "made.txt"), "by run 2\n", 0o644)
	})
	was := tree(t, ws)
	p, err := Restore(ctx, l, data, "ses_1", "turn_run_1", RestoreOptions{Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	actions := map[string]string{}
	for _, f := range p.Files {
		actions[f.Path] = f.Action
	}
	if actions["a.txt"] != "write" || actions["made.txt"] != "keep" || len(actions) != 2 || p.Checkpoint != nil {
		t.Fatalf("preview: %+v", p)
	}
	same(t, "a preview changes nothing", tree(t, ws), was)

	res, err := Restore(ctx, l, data, "ses_1", "turn_run_1", RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"made.txt": was["made.txt"]}
	for k, v := range before {
		want[k] = v
	}
	same(t, "restored, the new file kept", tree(t, ws), want)
	if _, err := Restore(ctx, l, data, "ses_1", "turn_run_1", RestoreOptions{RemoveCreated: true}); err != nil {
		t.Fatal(err)
	}
	same(t, "restored, the new file removed", tree(t, ws), before)
	// The first restore is undoable: a.txt goes back to run 2's; made.txt,
	// which it did not touch, stays as the second restore left it.
	if _, err := Undo(ctx, l, data, res.Checkpoint.ID); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, ws); got["a.txt"] != was["a.txt"] || got["made.txt"] != "" {
		t.Errorf("after undoing the first restore: %q", got)
	}
	recs, _ := l.ListCheckpoints(ctx, run.CheckpointFilter{SessionID: "ses_1", Kind: run.CheckpointRestore})
	if len(recs) != 2 {
		t.Errorf("restore records: %d", len(recs))
	}
}

// A repository inside a plain folder is a gitlink in the shadow's trees:
// its files are not kept, so undo and restore name it and leave it.
func TestNestedRepositoryIsLeftAlone(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	put(t, filepath.Join(ws, "a.txt"), "a\n", 0o644)
	runAround(t, l, data, ws, "run_1", func() {
		put(t, filepath.Join(ws, "a.txt"), "A\n", 0o644)
		sub := filepath.Join(ws, "sub")
		os.MkdirAll(sub, 0o755)
		git(t, sub, "init", "-q")
		put(t, filepath.Join(sub, "x"), "x\n", 0o644)
		git(t, sub, "add", "x")
		git(t, sub, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
	})
	res, err := Undo(ctx, l, data, "cp_run_1")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "a\n" {
		t.Errorf("a.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "sub", "x")); string(b) != "x\n" {
		t.Errorf("the nested repository's file was touched: %q", b)
	}
	var named bool
	for _, f := range res.Files {
		named = named || (f.Path == "sub" && f.Action == "skip")
	}
	if !named {
		t.Errorf("the nested repository is not named: %+v", res.Files)
	}
}

// A folder replaced by a link since the checkpoint is never written
// through: the file is named, nothing outside the workspace changes.
func TestRestoreNeverWritesThroughALink(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws, outside := t.TempDir(), t.TempDir(), t.TempDir()
	l := ledger(t, data)
	put(t, filepath.Join(ws, "sub/x.txt"), "x\n", 0o644)
	runAround(t, l, data, ws, "run_1", func() {
		os.RemoveAll(filepath.Join(ws, "sub"))
		os.Symlink(outside, filepath.Join(ws, "sub"))
	})
	_, err := Restore(ctx, l, data, "ses_1", "turn_run_1", RestoreOptions{})
	if err == nil || !strings.Contains(err.Error(), "sub/x.txt") {
		t.Errorf("Restore = %v, want the file named", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("a file was written outside the workspace: %v", entries)
	}
}

// A linked worktree (what a session's workspace becomes, issue 25): the
// refs go to the repository's common git dir, the worktree's own index is
// the one seeded and left alone.
func TestUndoInALinkedWorktree(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, main := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	git(t, main, "init", "-q")
	put(t, filepath.Join(main, "a.txt"), "a\n", 0o644)
	git(t, main, "add", "a.txt")
	git(t, main, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
	ws := filepath.Join(t.TempDir(), "wt")
	git(t, main, "worktree", "add", "-q", "-b", "session", ws)
	put(t, filepath.Join(ws, "a.txt"), "staged in the worktree\n", 0o644)
	git(t, ws, "add", "a.txt")
	staged := git(t, ws, "diff", "--cached", "--raw")
	before := tree(t, ws)
	k := runAround(t, l, data, ws, "run_1", func() {
		put(t, filepath.Join(ws, "a.txt"), "by the run\n", 0o644)
		put(t, filepath.Join(ws, "n.txt"), "new\n", 0o644)
	})
	if k.Record().GitDir != filepath.Join(main, ".git") {
		t.Errorf("the refs are not in the common git dir: %s", k.Record().GitDir)
	}
	if _, err := Undo(ctx, l, data, "cp_run_1"); err != nil {
		t.Fatal(err)
	}
	same(t, "the worktree after the undo", tree(t, ws), before)
	if got := git(t, ws, "diff", "--cached", "--raw"); got != staged {
		t.Errorf("the worktree's index moved: %q, was %q", got, staged)
	}
	if out := git(t, main, "for-each-ref", "refs/hermesdesk/checkpoints/"); !strings.Contains(out, "turn_run_1") {
		t.Errorf("the main checkout does not see the checkpoint: %q", out)
	}
}
