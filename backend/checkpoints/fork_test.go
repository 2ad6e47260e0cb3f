package checkpoints

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A fork of a turn in a git project: a worktree branched from the HEAD the
// checkpoint recorded, its files the checkpoint's byte for byte (tracked,
// untracked, staged-by-the-person content as it was on disk), the person's
// checkout, index, HEAD, stash and branches unchanged.
func TestForkLaysTheCheckpointOverAWorktreeFromItsHead(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	personsProject(t, ws)
	put(t, filepath.Join(ws, "a.txt"), "one\ntwo edited, not staged\nthree\n", 0o644)
	head := strings.TrimSpace(git(t, ws, "rev-parse", "HEAD"))
	want := tree(t, ws)
	delete(want, filepath.Join("ignored", "cache")) // ignored: never in a checkpoint

	k := runAround(t, l, data, ws, "run_1", func() { agentEdits(t, ws) })
	rec, err := l.GetCheckpoint(ctx, k.Record().ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Head != head {
		t.Fatalf("the record's head = %q, want the repository's HEAD %q", rec.Head, head)
	}
	state := func() string {
		return git(t, ws, "diff", "--cached", "--raw") + "|" + git(t, ws, "rev-parse", "HEAD") + "|" +
			git(t, ws, "stash", "list") + "|" + git(t, ws, "status", "--porcelain")
	}
	personBefore, filesBefore := state(), tree(t, ws)

	got := forkFiles(ctx, t, ws, rec)
	same(t, "the fork's files", got, want)
	git(t, ws, "merge-base", "--is-ancestor", head, "hermesdesk/fork") // fails the test if not
	if s := state(); s != personBefore {
		t.Errorf("the person's checkout moved:\n%s\nwas\n%s", s, personBefore)
	}
	same(t, "the person's files", tree(t, ws), filesBefore)
}

func TestForkBaseRefusesWithASentence(t *testing.T) {
	for _, c := range []struct {
		name string
		rec  run.Checkpoint
		want string
	}{
		{"plain folder", run.Checkpoint{Shadow: true, Before: "b", Head: ""}, "plain folder"},
		{"not kept", run.Checkpoint{Head: "h"}, "not kept"},
		{"no head", run.Checkpoint{Before: "b"}, "without the repository's commit"},
		{"git project", run.Checkpoint{Before: "b", Head: "h"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, err := ForkBase(c.rec)
			if c.want == "" {
				if err != nil || base != "h" {
					t.Fatalf("ForkBase = %q, %v", base, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, errdefs.ErrConflict) {
				t.Fatalf("ForkBase error = %v, want a conflict saying %q", err, c.want)
			}
		})
	}
}

// A fork of an empty project (a commit without files, nothing on disk):
// an empty worktree, not an error.
func TestForkOfAnEmptyProject(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	git(t, ws, "init", "-q")
	git(t, ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "base")
	k := runAround(t, l, data, ws, "run_1", func() { put(t, filepath.Join(ws, "new.txt"), "new\n", 0o644) })
	rec, err := l.GetCheckpoint(ctx, k.Record().ID)
	if err != nil {
		t.Fatal(err)
	}
	got := forkFiles(ctx, t, ws, rec)
	same(t, "the fork's files", got, map[string]string{})
}

// forkFiles makes a fork of rec the way the service does (a worktree of
// ws at ForkBase, the checkpoint laid over it) and reads its files.
func forkFiles(ctx context.Context, t *testing.T, ws string, rec run.Checkpoint) map[string]string {
	t.Helper()
	base, err := ForkBase(rec)
	if err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(t.TempDir(), "fork")
	git(t, ws, "worktree", "add", "-q", "-b", "hermesdesk/fork", wt, base)
	if err := LayOver(ctx, wt, rec.Before); err != nil {
		t.Fatalf("lay the checkpoint over the fork's worktree: %v", err)
	}
	got := tree(t, wt)
	delete(got, ".git") // the worktree's pointer file
	return got
}
