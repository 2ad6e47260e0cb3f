package workspaces

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

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

// rollBack removes what a creation made: the worktree (git's own
// "initializing" lock lifted first), the branch when it still points at
// the base commit (nothing was committed on it), and an empty folder left
// at the path. The workspace ends failed with a note that says so.
func (m *Manager) rollBack(ctx context.Context, w run.Workspace, top, why string) (run.Workspace, error) {
	var errs []error
	wt, err := m.find(ctx, top, w.Path)
	if err != nil {
		errs = append(errs, err)
	}
	if wt != nil {
		if wt.Locked && (wt.LockReason == gitInitializing || wt.LockReason == LockReason(w.ID)) {
			if err := m.git.Unlock(ctx, top, w.Path); err != nil {
				errs = append(errs, err)
			}
		}
		if err := m.git.RemoveWorktree(ctx, top, w.Path); err != nil {
			errs = append(errs, err)
		}
	}
	if err := m.git.Prune(ctx, top); err != nil {
		errs = append(errs, err)
	}
	note := why + " Rolled back: nothing was left behind."
	ref := branchRef(w)
	if c, err := m.git.ResolveRef(ctx, top, ref); err != nil {
		errs = append(errs, err)
	} else if c != "" {
		if c == w.BaseCommit {
			if err := m.git.DeleteRef(ctx, top, ref, c); err != nil {
				errs = append(errs, err)
			}
		} else {
			note = why + " Rolled back; the branch " + w.Branch + " holds commits and was kept."
		}
	}
	// Only an empty folder goes: anything in it is left for the person.
	if err := os.Remove(w.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
		note += " A folder was left at " + w.Path + "."
	}
	if len(errs) > 0 {
		note = why + " Rolling back did not finish: " + errors.Join(errs...).Error()
	}
	w.State, w.Note = StateFailed, note
	m.log.Info("workspace rolled back", "workspace", w.ID, "note", note)
	return m.save(ctx, w)
}

// RecoverAll finishes or rolls back every workspace whose creation did
// not end, and notices worktrees changed outside the app. It runs once at
// start; what it did is in each workspace's note and in the log.
func (m *Manager) RecoverAll(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	all, err := m.store.ListWorkspaces(ctx, "")
	if err != nil {
		return err
	}
	var errs []error
	// One look at each project's repository serves all its ready
	// worktrees: start-up stays quick with many workspaces known.
	type look struct {
		top string
		wts []gitcmd.Worktree
		err error
	}
	looks := map[string]*look{}
	for _, w := range all {
		if w.Kind != KindWorktree {
			continue
		}
		switch w.State {
		case StateClaimed, StateCreated:
			if _, err := m.recoverOne(ctx, w); err != nil {
				errs = append(errs, fmt.Errorf("workspace %s: %w", w.ID, err))
			}
		case StateReady:
			if w.SetupStatus == SetupRunning {
				w.SetupStatus = SetupFailed
				w.SetupOutput += "\n(Hermes Desk stopped while the setup script ran.)\n"
				w.Note = "Hermes Desk stopped while the setup script ran; it did not finish. The worktree is usable."
				if w, err = m.save(ctx, w); err != nil {
					errs = append(errs, err)
				}
			}
			l := looks[w.ProjectID]
			if l == nil {
				l = &look{}
				if l.top, l.err = m.top(ctx, w); l.err == nil {
					l.wts, l.err = m.git.Worktrees(ctx, l.top)
				}
				looks[w.ProjectID] = l
			}
			if l.err != nil {
				errs = append(errs, fmt.Errorf("workspace %s: %w", w.ID, l.err))
				continue
			}
			if _, err := m.checkIn(ctx, w, l.wts); err != nil {
				errs = append(errs, fmt.Errorf("workspace %s: %w", w.ID, err))
			}
		}
	}
	return errors.Join(errs...)
}

func (m *Manager) recoverOne(ctx context.Context, w run.Workspace) (run.Workspace, error) {
	top, err := m.top(ctx, w)
	if err != nil {
		return w, err
	}
	wt, err := m.find(ctx, top, w.Path)
	if err != nil {
		return w, err
	}
	h := HalfMade{State: w.State, Listed: wt != nil, Initializing: wt != nil && wt.Locked && wt.LockReason == gitInitializing}
	if Recover(h) == Finish {
		w, err = m.finish(ctx, w, top)
		if err != nil {
			return m.rollBack(ctx, w, top, "Hermes Desk stopped while making this worktree and could not finish it ("+err.Error()+").")
		}
		w.Note = "Hermes Desk stopped while making this worktree; it was finished at the next start."
		m.log.Info("workspace finished after a crash", "workspace", w.ID)
		return m.save(ctx, w)
	}
	return m.rollBack(ctx, w, top, "Hermes Desk stopped while making this worktree.")
}
