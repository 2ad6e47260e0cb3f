package merge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
)

// Result is what Apply did.
type Result struct {
	Preview
	// OldBase and NewBase are the base branch's commits before and after.
	OldBase string `json:"old_base"`
	NewBase string `json:"new_base"`
	// Backup is the ref keeping the base's old commit; BranchBackup (a
	// rebase) the workspace branch's.
	Backup       string `json:"backup"`
	BranchBackup string `json:"branch_backup,omitempty"`
	// OfferArchive: the work is home, the workspace may be archived.
	OfferArchive bool `json:"offer_archive"`
}

// BackupPrefix is where the refs that keep what a merge moved live:
// refs/hermesdesk/backup/<workspace id>/<time>.
const BackupPrefix = "refs/hermesdesk/backup/"

var applying sync.Mutex

// failAt, in tests, fails the step it names (the put-back test).
var failAt func(step string) error

func step(name string) error {
	if failAt != nil {
		return failAt(name)
	}
	return nil
}

// Apply merges t into its base with strategy when the preview is clean
// and nothing refuses it (docs/ARCHITECTURE.md §Merge): the backup refs
// first, the new commits made with commit-tree, then the worktree's
// uncommitted work committed on its branch, then the branches moved —
// each checkout's files by a two-tree `read-tree -m -u` (which refuses to
// overwrite local changes) and each ref by a compare-and-swap
// update-ref. A failed step puts back every step before it. message is
// the squash or merge commit's message ("" = the drafted one).
func Apply(ctx context.Context, t Target, strategy Strategy, message string, now time.Time) (Result, error) {
	// One merge at a time: two would race for the same base.
	applying.Lock()
	defer applying.Unlock()
	p, err := PreviewOf(ctx, t, strategy)
	if err != nil {
		return Result{}, err
	}
	if p.Refusal != "" {
		return Result{Preview: p}, refused(p.Refusal)
	}
	if strings.TrimSpace(message) == "" {
		message = p.Message
	}
	who := identity(ctx, t.Top)
	var newBase, newBranch string
	switch strategy {
	case Squash:
		newBase, err = commitTree(ctx, t.Top, who, p.tree, message, p.BaseCommit)
	case Merge:
		newBase, err = commitTree(ctx, t.Top, who, p.tree, message, p.BaseCommit, p.WorkCommit)
	case Rebase:
		newBase, err = replay(ctx, t.Top, who, p.BaseCommit, p.WorkCommit)
		newBranch = newBase
	}
	if err != nil {
		return Result{Preview: p}, err
	}
	res := Result{Preview: p, OldBase: p.BaseCommit, NewBase: newBase}
	stamp := now.UTC().Format("20060102T150405.000000000Z")
	res.Backup = BackupPrefix + t.WorkspaceID + "/" + stamp
	if err := createRef(ctx, t.Top, res.Backup, p.BaseCommit, "hermesdesk merge backup of "+t.Base); err != nil {
		return res, fmt.Errorf("the backup of %s could not be written, so nothing was merged: %w", t.Base, err)
	}
	if strategy == Rebase {
		res.BranchBackup = res.Backup + "-branch"
		if err := createRef(ctx, t.Top, res.BranchBackup, p.head, "hermesdesk merge backup of "+t.Branch); err != nil {
			return res, fmt.Errorf("the backup of the workspace's branch could not be written, so nothing was merged: %w", err)
		}
	}
	if err := step("backup"); err != nil {
		return res, err
	}
	var undo []func()
	putBack := func(cause error) error {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		return cause
	}
	// The worktree's uncommitted work becomes a commit on its branch (its
	// files are already that commit's; only its own index moves).
	if p.Uncommitted {
		branch := "refs/heads/" + t.Branch
		if _, err := git(ctx, t.Path, "update-ref", "-m", "hermesdesk merge: uncommitted work", branch, p.WorkCommit, p.head); err != nil {
			return res, fmt.Errorf("the workspace's uncommitted work could not be committed, so nothing was merged: %w", err)
		}
		undo = append(undo, func() {
			putRef(ctx, t.Path, branch, p.head, p.WorkCommit)
			resetIndex(ctx, t.Path, p.head)
		})
		if err := resetIndex(ctx, t.Path, p.WorkCommit); err != nil {
			return res, putBack(fmt.Errorf("the workspace's index could not be updated, so nothing was merged: %w", err))
		}
		if err := step("commit work"); err != nil {
			return res, putBack(err)
		}
	}
	if newBranch != "" && newBranch != p.WorkCommit {
		if err := move(ctx, t.Path, t.Branch, p.WorkCommit, newBranch); err != nil {
			return res, putBack(fmt.Errorf("the workspace's branch could not be rebased, so nothing was merged: %w", err))
		}
		undo = append(undo, func() { putMoved(ctx, t.Path, t.Branch, newBranch, p.WorkCommit) })
		if err := step("rebase branch"); err != nil {
			return res, putBack(err)
		}
	}
	if p.Checkout != "" {
		err = move(ctx, p.Checkout, t.Base, p.BaseCommit, newBase)
	} else {
		_, err = git(ctx, t.Top, "update-ref", "-m", "hermesdesk merge", "refs/heads/"+t.Base, newBase, p.BaseCommit)
	}
	if err != nil {
		return res, putBack(fmt.Errorf("%s could not be moved to the merged commit, so nothing was merged: %w", t.Base, err))
	}
	res.OfferArchive = true
	return res, nil
}

// move moves branch, checked out at dir, from old to new: the index and
// files by a two-tree read-tree (it refuses to overwrite a local change
// and writes nothing then), then the ref by compare-and-swap. If the ref
// cannot move, the files are put back.
func move(ctx context.Context, dir, branch, old, new string) error {
	// A fresh stat cache, or read-tree takes untouched files for changed.
	gitcmd.Run(ctx, gitcmd.Cmd{Dir: dir, Args: []string{"update-index", "-q", "--refresh"}})
	if _, err := git(ctx, dir, "read-tree", "-m", "-u", old, new); err != nil {
		return fmt.Errorf("the checkout's files could not be updated (a local change would be overwritten?): %w", err)
	}
	err := step("update-ref " + branch)
	if err == nil {
		_, err = git(ctx, dir, "update-ref", "-m", "hermesdesk merge", "refs/heads/"+branch, new, old)
	}
	if err != nil {
		if _, perr := git(ctx, dir, "read-tree", "-m", "-u", new, old); perr != nil {
			slog.Error("merge: the checkout's files could not be put back", "dir", dir, "err", perr)
			return fmt.Errorf("%w; putting the files back failed too (restore them from %s): %v", err, old, perr)
		}
		return err
	}
	return nil
}

// putMoved undoes move: the ref back, then the files.
func putMoved(ctx context.Context, dir, branch, moved, old string) {
	if err := putRef(ctx, dir, "refs/heads/"+branch, old, moved); err != nil {
		return
	}
	if _, err := git(ctx, dir, "read-tree", "-m", "-u", moved, old); err != nil {
		slog.Error("merge: the files could not be put back", "dir", dir, "err", err)
	}
}

func putRef(ctx context.Context, dir, ref, old, moved string) error {
	_, err := git(ctx, dir, "update-ref", "-m", "hermesdesk merge put back", ref, old, moved)
	if err != nil {
		slog.Error("merge: a ref could not be put back", "ref", ref, "to", old, "err", err)
	}
	return err
}

// resetIndex makes the checkout's index commit's tree, keeping its files.
func resetIndex(ctx context.Context, dir, commit string) error {
	if _, err := git(ctx, dir, "read-tree", commit); err != nil {
		return err
	}
	gitcmd.Run(ctx, gitcmd.Cmd{Dir: dir, Args: []string{"update-index", "-q", "--refresh"}})
	return nil
}

// createRef writes ref at commit only if it does not exist yet.
func createRef(ctx context.Context, dir, ref, commit, why string) error {
	_, err := git(ctx, dir, "update-ref", "-m", why, "--create-reflog", ref, commit, "")
	return err
}

// replay makes the workspace's commits after base, oldest first, again
// on onto: each one's change merged (merge-tree) onto what came before,
// keeping its author and message. While onto is the commit's own parent
// the commit is kept as it is. A conflict stops it: nothing is moved.
func replay(ctx context.Context, dir string, who []string, onto, work string) (string, error) {
	out, err := git(ctx, dir, "rev-list", "--reverse", "--topo-order", "--parents", onto+".."+work)
	if err != nil {
		return "", err
	}
	cur := onto
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue // merges were refused by the preview
		}
		c, parent := f[0], f[1]
		if parent == cur {
			cur = c
			continue
		}
		// merge-tree takes the merge base from history: a commit of
		// cur's tree on c's parent makes that parent the base, so the
		// merge is c's change applied to cur (git 2.39 has no
		// --merge-base).
		side, err := commitTree(ctx, dir, who, cur+"^{tree}", "replay\n", parent)
		if err != nil {
			return "", err
		}
		mt, err := gitcmd.MergeTreeOf(ctx, dir, side, c)
		if err != nil {
			return "", err
		}
		if !mt.Clean {
			subject, _ := git(ctx, dir, "log", "-1", "--format=%s", c)
			return "", refused(fmt.Sprintf("replaying the commit %q on the base conflicts in %s; choose squash or merge, or resolve with the agent", subject, names(mt.ConflictedPaths())))
		}
		if cur, err = recommit(ctx, dir, who, c, mt.Tree, cur); err != nil {
			return "", err
		}
	}
	return cur, nil
}

// recommit makes tree a commit on parent with c's author and message.
func recommit(ctx context.Context, dir string, who []string, c, tree, parent string) (string, error) {
	out, err := git(ctx, dir, "log", "-1", "--format=%an%x00%ae%x00%aD", c)
	if err != nil {
		return "", err
	}
	a := strings.Split(out, "\x00")
	if len(a) != 3 {
		return "", errors.New("a commit's author could not be read")
	}
	msg, err := gitcmd.Output(ctx, dir, "log", "-1", "--format=%B", c)
	if err != nil {
		return "", err
	}
	env := append(append([]string(nil), who...), "GIT_AUTHOR_NAME="+a[0], "GIT_AUTHOR_EMAIL="+a[1], "GIT_AUTHOR_DATE="+a[2])
	return commitTree(ctx, dir, env, tree, strings.TrimRight(msg, "\n")+"\n", parent)
}
