package workspaces

// gitInitializing is the lock reason `git worktree add` holds while it
// checks files out: a worktree still locked with it was cut short.
const gitInitializing = "initializing"

// HalfMade is what is found of a workspace whose creation did not end
// (state claimed or created) when the app starts again.
type HalfMade struct {
	State string
	// Listed: git lists the worktree; Initializing: git's own "add" lock
	// is still on it (the checkout was cut short).
	Listed       bool
	Initializing bool
}

// Recovery is what to do with a half-made workspace.
type Recovery int

const (
	// Finish: the worktree is whole; lock it and call it ready.
	Finish Recovery = iota + 1
	// RollBack: remove what was made (the worktree, the branch if nothing
	// was committed on it) and mark the workspace failed.
	RollBack
)

// Recover decides a half-made workspace's fate
// (docs/ARCHITECTURE.md §Workspaces, "Creation"): a worktree git finished
// adding is finished; anything less is rolled back, so a crash leaves
// either a ready workspace or nothing.
func Recover(h HalfMade) Recovery {
	if (h.State == StateClaimed || h.State == StateCreated) && h.Listed && !h.Initializing {
		return Finish
	}
	return RollBack
}
