package merge

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

var now = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

func apply(t *testing.T, r *repo, s Strategy, msg string) Result {
	t.Helper()
	res, err := Apply(context.Background(), r.target, s, msg, now)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// topState is the main checkout as the person sees it.
func (r *repo) topState(t *testing.T) string {
	return gitT(t, r.top, "rev-parse", "main") + "\n" + gitT(t, r.top, "ls-files", "-s") + "\n" +
		gitT(t, r.top, "status", "--porcelain", "--untracked-files=all") + "\n" +
		read(t, filepath.Join(r.top, "a.txt")) + read(t, filepath.Join(r.top, "notes.txt"))
}

func TestApplySquash(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
	r.commit(t, r.wt, "a")
	gitcmdtest.Write(t, filepath.Join(r.wt, "new.txt"), "uncommitted\n")
	gitcmdtest.Write(t, filepath.Join(r.top, "notes.txt"), "the person's, untouched by the merge\n")
	old := gitT(t, r.top, "rev-parse", "main")
	res := apply(t, r, Squash, "Edited message\n")
	if gitT(t, r.top, "rev-parse", "main^") != old || gitT(t, r.top, "log", "-1", "--format=%B", "main") != "Edited message" {
		t.Fatalf("not one commit on the old base:\n%s", gitT(t, r.top, "log", "--format=%H %P %s", "main"))
	}
	if read(t, filepath.Join(r.top, "a.txt")) != "one\nTWO\nthree\n" || read(t, filepath.Join(r.top, "new.txt")) != "uncommitted\n" {
		t.Error("the checkout's files did not follow the base")
	}
	if st := gitT(t, r.top, "status", "--porcelain", "--untracked-files=all"); st != "?? notes.txt" {
		t.Errorf("the checkout is half-merged or lost the person's file: %q", st)
	}
	if gitT(t, r.top, "rev-parse", res.Backup) != old || !strings.HasPrefix(res.Backup, BackupPrefix+"wsp_test/") || !res.OfferArchive {
		t.Errorf("%+v", res)
	}
	// The worktree's uncommitted file is now a commit on its branch, and
	// its index agrees with its files.
	if st := gitT(t, r.wt, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("workspace status %q", st)
	}
	if gitT(t, r.wt, "show", "HEAD:new.txt") != "uncommitted" {
		t.Error("the uncommitted work was not committed on the workspace's branch")
	}
}

func TestApplyMerge(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
	ws := r.commit(t, r.wt, "a")
	gitcmdtest.Write(t, filepath.Join(r.top, "c.txt"), "sea, moved on\n")
	base := r.commit(t, r.top, "c")
	apply(t, r, Merge, "")
	if got := gitT(t, r.top, "log", "-1", "--format=%P", "main"); got != base+" "+ws {
		t.Fatalf("parents %q", got)
	}
	if gitT(t, r.top, "log", "-1", "--format=%s", "main") != "Better a" {
		t.Error("the drafted message was not used")
	}
	if read(t, filepath.Join(r.top, "a.txt")) != "one\nTWO\nthree\n" || read(t, filepath.Join(r.top, "c.txt")) != "sea, moved on\n" {
		t.Error("files")
	}
}

func TestApplyRebase(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
	r.commit(t, r.wt, "first of the workspace")
	gitcmdtest.Write(t, filepath.Join(r.wt, "b.txt"), "BEE\n")
	head := r.commit(t, r.wt, "second of the workspace")
	gitcmdtest.Write(t, filepath.Join(r.top, "c.txt"), "sea, moved on\n")
	base := r.commit(t, r.top, "c")
	res := apply(t, r, Rebase, "")
	if got := gitT(t, r.top, "log", "--format=%s|%an", base+"..main"); got != "second of the workspace|t\nfirst of the workspace|t" {
		t.Fatalf("replayed: %q", got)
	}
	if gitT(t, r.top, "rev-parse", "hermesdesk/ws") != gitT(t, r.top, "rev-parse", "main") {
		t.Error("the workspace's branch was not rebased with it")
	}
	if gitT(t, r.top, "rev-parse", res.BranchBackup) != head || gitT(t, r.top, "rev-parse", res.Backup) != base {
		t.Errorf("%+v", res)
	}
	if read(t, filepath.Join(r.wt, "c.txt")) != "sea, moved on\n" || gitT(t, r.wt, "status", "--porcelain") != "" {
		t.Error("the worktree's files did not follow its branch")
	}
}

func TestApplyRebaseStopsAtAConflict(t *testing.T) {
	r := newRepo(t)
	// Clean as a whole (the second commit puts a.txt back), but the first
	// commit conflicts with the base on its own.
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nworkspace\nthree\n")
	r.commit(t, r.wt, "first")
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nbase\nthree\n")
	r.commit(t, r.wt, "second")
	gitcmdtest.Write(t, filepath.Join(r.wt, "c.txt"), "sea, from the workspace\n")
	r.commit(t, r.wt, "third")
	gitcmdtest.Write(t, filepath.Join(r.top, "a.txt"), "one\nbase\nthree\n")
	r.commit(t, r.top, "base")
	before := r.state(t)
	_, err := Apply(context.Background(), r.target, Rebase, "", now)
	if !errors.Is(err, ErrRefused) || !strings.Contains(Reason(err), `replaying the commit "first" on the base conflicts in a.txt`) {
		t.Fatalf("%v", err)
	}
	if after := r.state(t); after != before {
		t.Errorf("a stopped rebase moved something:\n%s\n---\n%s", before, after)
	}
}

func TestApplyRefusedMovesNothing(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "b.txt"), "bee from the workspace\n")
	r.commit(t, r.wt, "b")
	gitcmdtest.Write(t, filepath.Join(r.top, "b.txt"), "the person's own edit\n")
	before := r.state(t)
	_, err := Apply(context.Background(), r.target, Squash, "", now)
	if !errors.Is(err, ErrRefused) || !strings.Contains(Reason(err), "b.txt") {
		t.Fatalf("%v", err)
	}
	if r.state(t) != before {
		t.Error("a refused merge moved something")
	}
}

func TestApplyBaseNotCheckedOut(t *testing.T) {
	r := newRepo(t)
	gitT(t, r.top, "checkout", "-q", "-b", "elsewhere")
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
	r.commit(t, r.wt, "a")
	apply(t, r, Squash, "")
	if gitT(t, r.top, "show", "main:a.txt") != "one\nTWO\nthree" || read(t, filepath.Join(r.top, "a.txt")) != "one\ntwo\nthree\n" {
		t.Error("the base moved without touching the checkout of another branch")
	}
}

// A step that fails puts back what was there: the branches, both
// checkouts' indexes and files.
func TestApplyPutsBackAFailedStep(t *testing.T) {
	for _, s := range []struct {
		strategy Strategy
		step     string
	}{{Squash, "backup"}, {Squash, "commit work"}, {Squash, "update-ref main"}, {Rebase, "rebase branch"}, {Rebase, "update-ref main"}, {Rebase, "update-ref hermesdesk/ws"}} {
		t.Run(string(s.strategy)+" "+s.step, func(t *testing.T) {
			r := newRepo(t)
			gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
			r.commit(t, r.wt, "a")
			gitcmdtest.Write(t, filepath.Join(r.wt, "new.txt"), "uncommitted\n")
			gitcmdtest.Write(t, filepath.Join(r.top, "c.txt"), "sea, moved on\n")
			r.commit(t, r.top, "c")
			gitcmdtest.Write(t, filepath.Join(r.top, "notes.txt"), "the person's\n")
			before := r.state(t)
			failed := false
			failAt = func(step string) error {
				if step == s.step {
					failed = true
					return fmt.Errorf("failed on purpose at %s", step)
				}
				return nil
			}
			defer func() { failAt = nil }()
			if _, err := Apply(context.Background(), r.target, s.strategy, "", now); err == nil || !failed {
				t.Fatalf("err %v, failed %v", err, failed)
			}
			if after := r.state(t); after != before {
				t.Errorf("not put back:\n%s\n---\n%s", before, after)
			}
		})
	}
}

// The backup ref restores the exact pre-merge state of the base and its
// checkout.
func TestBackupRestores(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
	r.commit(t, r.wt, "a")
	gitcmdtest.Write(t, filepath.Join(r.top, "notes.txt"), "the person's\n")
	before := r.topState(t)
	res := apply(t, r, Squash, "")
	if r.topState(t) == before {
		t.Fatal("nothing merged")
	}
	gitT(t, r.top, "reset", "-q", "--keep", res.Backup)
	if after := r.topState(t); after != before {
		t.Errorf("the backup did not restore:\n%s\n---\n%s", before, after)
	}
}

// What the person staged in a file the merge does not touch stays staged.
func TestApplyKeepsTheCheckoutsStagedChange(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
	r.commit(t, r.wt, "a")
	gitcmdtest.Write(t, filepath.Join(r.top, "c.txt"), "staged by the person\n")
	gitT(t, r.top, "add", "c.txt")
	gitcmdtest.Write(t, filepath.Join(r.top, "c.txt"), "staged, then edited again\n")
	apply(t, r, Squash, "")
	if got := gitT(t, r.top, "status", "--porcelain"); got != "MM c.txt" {
		t.Errorf("status %q", got)
	}
	if gitT(t, r.top, "show", ":c.txt") != "staged by the person" || read(t, filepath.Join(r.top, "c.txt")) != "staged, then edited again\n" {
		t.Error("the staged or the working version of c.txt changed")
	}
}
