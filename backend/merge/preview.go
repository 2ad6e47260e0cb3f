package merge

import (
	"context"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
)

// Target is the workspace being merged, as the service found it.
type Target struct {
	WorkspaceID string
	// Top is the repository's main checkout; Path the workspace's
	// worktree, Branch its branch (hermesdesk/<slug>), Base the branch the
	// work goes to.
	Top, Path, Branch, Base string
	// RunLive, SetupRunning: something still writes in the worktree.
	RunLive, SetupRunning bool
	// Title and Runs draft the squash message.
	Title string
	Runs  []Run
}

// Preview is what a merge would do, computed without moving anything of
// the person's: the work (the branch plus what is uncommitted in the
// worktree, as a commit no ref points at) merged in memory with the base.
type Preview struct {
	WorkspaceID string   `json:"workspace_id"`
	Strategy    Strategy `json:"strategy"`
	Base        string   `json:"base"`
	// BaseCommit is the base's commit the preview merged with; Apply
	// refuses if the base has moved since (compare-and-swap).
	BaseCommit string `json:"base_commit,omitempty"`
	// WorkCommit is the work as a commit: the branch's head, or a commit
	// of the worktree's uncommitted files on top of it.
	WorkCommit  string `json:"work_commit,omitempty"`
	Uncommitted bool   `json:"uncommitted,omitempty"`
	Clean       bool   `json:"clean"`
	// Conflicts are the conflicted files with git's messages about each.
	Conflicts []Conflict `json:"conflicts,omitempty"`
	// Files are the files the merge changes on the base.
	Files []string `json:"files"`
	// Message is the drafted commit message (squash and merge), editable.
	Message string `json:"message"`
	// BaseAhead counts the base's commits since the workspace's fork point.
	BaseAhead int `json:"base_ahead"`
	// Checkout is where the base is checked out ("" nowhere): its files
	// move with it.
	Checkout string `json:"checkout,omitempty"`
	// Refusal, when set, is why the merge cannot be applied; Notes are
	// worth saying either way.
	Refusal string   `json:"refusal,omitempty"`
	Notes   []string `json:"notes,omitempty"`

	tree string // the merged tree
	head string // the workspace branch's commit
}

// PreviewOf computes the preview of merging t with strategy. Objects are
// written into the repository's store (the work commit, the merged
// tree); no ref, index or file moves.
func PreviewOf(ctx context.Context, t Target, strategy Strategy) (Preview, error) {
	p := Preview{WorkspaceID: t.WorkspaceID, Strategy: strategy, Base: t.Base, Files: []string{}}
	f := Facts{Strategy: strategy, Base: t.Base, RunLive: t.RunLive, SetupRunning: t.SetupRunning}
	base, err := commitOf(ctx, t.Top, "refs/heads/"+t.Base)
	if err != nil {
		return p, fmt.Errorf("the base branch could not be read: %w", err)
	}
	if base == "" {
		f.BaseMissing = true
		return p.decided(f), nil
	}
	p.BaseCommit = base
	heads, err := git(ctx, t.Path, "rev-parse", "HEAD^{commit}", "HEAD^{tree}")
	if f := strings.Fields(heads); err != nil || len(f) != 2 {
		return p, fmt.Errorf("the workspace's branch could not be read: %w", err)
	} else {
		p.head = f[0]
		if p.WorkCommit, err = workCommit(ctx, t.Path, p.head, f[1]); err != nil {
			return p, err
		}
	}
	p.Uncommitted = p.WorkCommit != p.head
	// The base's commits the work lacks: those since the fork point.
	if f.BaseAhead, err = count(ctx, t.Top, p.WorkCommit+".."+base); err != nil {
		return p, err
	}
	p.BaseAhead = f.BaseAhead
	mt, err := gitcmd.MergeTreeOf(ctx, t.Top, base, p.WorkCommit)
	if err != nil {
		return p, fmt.Errorf("the merge could not be previewed: %w", err)
	}
	p.tree, p.Clean = mt.Tree, mt.Clean
	f.Clean, f.Conflicts = mt.Clean, mt.ConflictedPaths()
	p.Conflicts = conflictsOf(mt)
	if p.Files, err = changedPaths(ctx, t.Top, base, mt.Tree); err != nil {
		return p, err
	}
	if p.Files == nil {
		p.Files = []string{}
	}
	f.Changed = p.Files
	f.Nothing = mt.Clean && len(p.Files) == 0
	if strategy == Rebase {
		merges, err := count(ctx, t.Top, "--merges", base+".."+p.WorkCommit)
		if err != nil {
			return p, err
		}
		f.RebaseMerges = merges > 0
	}
	if p.Checkout, err = checkoutOf(ctx, t.Top, t.Base); err != nil {
		return p, err
	}
	if p.Checkout != "" {
		if f.CheckoutDirty, err = dirtyPaths(ctx, p.Checkout, p.Files); err != nil {
			return p, fmt.Errorf("the checkout of %s could not be read: %w", t.Base, err)
		}
	}
	if strategy != Rebase {
		p.Message = DraftMessage(t.Title, t.Runs)
	}
	return p.decided(f), nil
}

func (p Preview) decided(f Facts) Preview {
	d := Decide(f)
	p.Refusal, p.Notes = d.Refusal, d.Notes
	return p
}

// workCommit is the worktree at path as a commit: head itself when
// nothing is uncommitted, else a commit of its files (tracked and
// untracked, not ignored) on head, made through a temporary copy of its
// index (backend/changes, the run's own snapshot: its stat cache makes it
// fast) — its own index, branch and files never move.
func workCommit(ctx context.Context, path, head, headTree string) (string, error) {
	snaps, err := changes.OpenWith(ctx, path, changes.Options{Keep: true})
	if err != nil {
		return "", fmt.Errorf("the workspace's files could not be read: %w", err)
	}
	defer snaps.Close()
	snaps.MaxFileSize = -1 // a merge takes every file, however large
	snap, err := snaps.Snapshot(ctx)
	if err != nil {
		return "", fmt.Errorf("the workspace's files could not be read: %w", err)
	}
	if snap.Tree == headTree {
		return head, nil
	}
	// Made by the app, like a checkpoint: the person's own name goes on
	// the commits that land on their base.
	return commitTree(ctx, path, appIdentity, snap.Tree, "Uncommitted work of the workspace\n", head)
}

// conflictsOf lists each conflicted file with git's CONFLICT messages
// about it.
func conflictsOf(mt gitcmd.MergeTree) []Conflict {
	var out []Conflict
	for _, path := range mt.ConflictedPaths() {
		c := Conflict{Path: path}
		for _, m := range mt.Messages {
			if !strings.HasPrefix(m.Type, "CONFLICT") {
				continue
			}
			for _, mp := range m.Paths {
				if mp == path {
					c.Messages = append(c.Messages, m.Text)
					break
				}
			}
		}
		out = append(out, c)
	}
	return out
}
