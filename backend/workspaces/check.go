package workspaces

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Check notices a ready worktree deleted, moved or re-locked outside the
// app and says so in its note (state gone when its folder is missing). It
// runs when a session in it is opened and before each of its runs. Git is
// asked without the manager's lock (a long creation elsewhere does not hold
// up opening a session); the note is written under it, and only while the
// workspace is still ready.
func (m *Manager) Check(ctx context.Context, id string) (run.Workspace, error) {
	w, err := m.store.GetWorkspace(ctx, id)
	if err != nil {
		return w, err
	}
	if w.Kind != KindWorktree || w.State != StateReady {
		return w, nil
	}
	top, err := m.top(ctx, w)
	if err != nil {
		return w, err
	}
	wts, err := m.git.Worktrees(ctx, top)
	if err != nil {
		return w, fmt.Errorf("the repository's worktrees could not be listed: %w", err)
	}
	note, state := outsideChange(w, findIn(wts, w.Path), folderGone(w.Path))
	if note == "" || note == w.Note && state == w.State {
		return w, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, err := m.store.GetWorkspace(ctx, id)
	if err != nil || cur.State != StateReady {
		return cur, err
	}
	return m.noteOutsideChange(ctx, cur, note, state)
}

// checkIn is Check against the repository's worktree list wts, with the
// manager's lock held (start-up).
func (m *Manager) checkIn(ctx context.Context, w run.Workspace, wts []gitcmd.Worktree) (run.Workspace, error) {
	note, state := outsideChange(w, findIn(wts, w.Path), folderGone(w.Path))
	if note == "" || note == w.Note && state == w.State {
		return w, nil
	}
	return m.noteOutsideChange(ctx, w, note, state)
}

func (m *Manager) noteOutsideChange(ctx context.Context, w run.Workspace, note, state string) (run.Workspace, error) {
	m.log.Info("workspace changed outside the app", "workspace", w.ID, "note", note)
	w.Note, w.State = note, state
	return m.save(ctx, w)
}

func folderGone(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, os.ErrNotExist)
}

// outsideChange says, in words, what happened to a ready worktree outside
// the app, given git's entry for it (nil: not listed) and whether its
// folder is gone; "" when nothing did.
func outsideChange(w run.Workspace, wt *gitcmd.Worktree, gone bool) (note, state string) {
	switch {
	case gone:
		return "The worktree's folder " + w.Path + " is gone: it was deleted or moved outside Hermes Desk. The branch " + w.Branch + " is kept.", StateGone
	case wt == nil:
		return "Git no longer lists " + w.Path + " as a worktree: it was removed or moved outside Hermes Desk.", StateGone
	case !wt.Locked:
		return "The worktree was unlocked outside Hermes Desk.", w.State
	case wt.LockReason != LockReason(w.ID):
		return fmt.Sprintf("The worktree was locked again outside Hermes Desk (%q): archiving it is refused until that lock is lifted.", wt.LockReason), w.State
	}
	return "", w.State
}
