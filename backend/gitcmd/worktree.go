package gitcmd

import (
	"context"
	"strings"
)

// Worktree is one entry of `git worktree list --porcelain -z`
// (docs/ARCHITECTURE.md §Workspaces).
type Worktree struct {
	Path string
	Head string
	// Branch is the full ref (refs/heads/x); empty when detached.
	Branch   string
	Bare     bool
	Detached bool
	// Locked is set when the worktree is locked; LockReason is git's
	// reason text (may be empty).
	Locked     bool
	LockReason string
	Prunable   bool
}

// Worktrees lists the worktrees of the repository at dir, the main one
// first.
func Worktrees(ctx context.Context, dir string) ([]Worktree, error) {
	out, err := Output(ctx, dir, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, err
	}
	return ParseWorktrees(out), nil
}

// ParseWorktrees reads `git worktree list --porcelain -z`: attributes end
// in NUL, an empty attribute ends a record. Unknown attributes are skipped
// (a newer git may add some).
func ParseWorktrees(out string) []Worktree {
	var list []Worktree
	var cur *Worktree
	for _, attr := range strings.Split(out, "\x00") {
		if attr == "" {
			cur = nil
			continue
		}
		key, val, _ := strings.Cut(attr, " ")
		if key == "worktree" {
			list = append(list, Worktree{Path: val})
			cur = &list[len(list)-1]
			continue
		}
		if cur == nil {
			continue
		}
		switch key {
		case "HEAD":
			cur.Head = val
		case "branch":
			cur.Branch = val
		case "bare":
			cur.Bare = true
		case "detached":
			cur.Detached = true
		case "locked":
			cur.Locked, cur.LockReason = true, val
		case "prunable":
			cur.Prunable = true
		}
	}
	return list
}
