package workspaces

import (
	"errors"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

// ErrRefused: the workspace operation is refused for a reason said in the
// message; nothing was changed.
var ErrRefused = fmt.Errorf("%w: refused", errdefs.ErrConflict)

// RepoFacts is what is known of a project's folder before a worktree is
// made from it.
type RepoFacts struct {
	GitMissing bool
	NotRepo    bool
	Bare       bool
	// Detached: HEAD names no branch and no base was chosen.
	Detached bool
	// Unborn: the branch has no commit yet.
	Unborn bool
	// BaseMissing: the chosen base is not a branch or commit.
	BaseMissing bool
	Base        string
}

// CanCreate says why a worktree cannot be made, in a sentence, or nil.
func CanCreate(f RepoFacts) error {
	switch {
	case f.GitMissing:
		return refused("git is not installed (or not on PATH), so a worktree cannot be made")
	case f.NotRepo:
		return refused("the project's folder is not a git repository, so it cannot have worktrees; use the checkout")
	case f.Bare:
		return refused("the project's folder is a bare git repository (no files checked out); open a checkout of it instead")
	case f.BaseMissing:
		return refused(fmt.Sprintf("the base %q is not a branch or commit of this repository", f.Base))
	case f.Unborn:
		return refused("the repository has no commit yet, so there is nothing to branch from; commit once first")
	case f.Detached:
		return refused("the checkout is on a detached HEAD (no branch); choose a base branch")
	}
	return nil
}

// TreeFacts is what is known of a workspace's worktree before it is
// archived.
type TreeFacts struct {
	// Main: the path is the repository's main checkout.
	Main bool
	// Listed: git lists it as a worktree.
	Listed bool
	Locked bool
	// LockReason is git's lock reason when Locked.
	LockReason string
	// RunLive: a run of a session in the workspace has not ended.
	RunLive bool
	// SetupRunning: its setup script is still running.
	SetupRunning bool
}

// CanArchive says why workspace id's worktree may not be archived, or nil.
// A worktree without our lock reason is someone else's: an agent's own,
// or one the person locked (docs/ARCHITECTURE.md §Workspaces, "Never
// destroy").
func CanArchive(id string, f TreeFacts) error {
	switch {
	case f.Main:
		return refused("this is the project's main checkout; only worktrees Hermes Desk made can be archived")
	case f.RunLive:
		return refused("a run is still working in this workspace; stop it or wait for it to end")
	case f.SetupRunning:
		return refused("the workspace's setup script is still running; wait for it to end")
	case !f.Listed:
		return refused("git does not list this folder as a worktree of the repository, so Hermes Desk did not make it (or it was moved); nothing was touched")
	case f.Locked && f.LockReason != LockReason(id):
		return refused(fmt.Sprintf("git's lock on this worktree belongs to someone else (%q); unlock it yourself if it may go", f.LockReason))
	case !f.Locked:
		return refused("this worktree is not locked by Hermes Desk, so it may not be one the app made; nothing was touched")
	}
	return nil
}

// refusal is a refusal whose message is the sentence alone.
type refusal struct{ msg string }

func (r refusal) Error() string { return r.msg }
func (r refusal) Unwrap() error { return ErrRefused }

func refused(msg string) error { return refusal{msg} }

// IsRefused reports a refusal (the message says why).
func IsRefused(err error) bool { return errors.Is(err, ErrRefused) }

// Reason is the sentence of the refusal in err's chain, for people, without
// what wrapped it; err's own text when no refusal of this package is in it.
func Reason(err error) string {
	var r refusal
	if errors.As(err, &r) {
		return r.msg
	}
	return err.Error()
}
