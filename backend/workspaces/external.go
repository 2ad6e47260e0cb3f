package workspaces

import (
	"context"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// OriginExternal marks a worktree Hermes Desk did not make
// (docs/ARCHITECTURE.md §Workspaces, "Made outside Hermes Desk").
const OriginExternal = "external"

// External picks, from git's worktree list wts of project projectID's
// repository (the main checkout first), the worktrees the app did not
// make: not the main checkout, not bare, not prunable (their folder is
// gone, git will forget them), and at no path a journaled workspace of
// the project records. Each comes back as a read-only Workspace with
// Origin "external" and no id: nothing of the app may archive or restore
// it. A worktree locked with our reason but unknown to the journal is
// still external: the journal, not the lock, says what the app made.
func External(projectID string, wts []gitcmd.Worktree, known []run.Workspace) []run.Workspace {
	ours := make(map[string]bool, len(known))
	for _, w := range known {
		if w.Path != "" {
			ours[filepath.Clean(w.Path)] = true
		}
	}
	var out []run.Workspace
	for i, wt := range wts {
		if i == 0 || wt.Bare || wt.Prunable || ours[filepath.Clean(wt.Path)] {
			continue
		}
		w := run.Workspace{
			ProjectID: projectID,
			Kind:      KindWorktree,
			State:     StateReady,
			Path:      wt.Path,
			Branch:    shortBranch(wt.Branch),
			Origin:    OriginExternal,
			Note:      "Made outside Hermes Desk: listed only; the app does not archive or restore it.",
		}
		if wt.Detached {
			w.Note = "Made outside Hermes Desk, on a detached HEAD at " + short(wt.Head) + ": listed only; the app does not archive or restore it."
		}
		out = append(out, w)
	}
	return out
}

func shortBranch(ref string) string {
	const heads = "refs/heads/"
	if len(ref) > len(heads) && ref[:len(heads)] == heads {
		return ref[len(heads):]
	}
	return ref
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// withExternal adds to a project's journaled workspaces the worktrees of
// its repository the app did not make. A project that is not (or no
// longer) a git repository, or whose worktrees cannot be listed, has none
// to add: the list is still answered, the reason logged.
func (m *Manager) withExternal(ctx context.Context, projectID string, known []run.Workspace) []run.Workspace {
	proj, err := m.store.GetProject(ctx, projectID)
	if err != nil || proj.Workspace == "" {
		return known
	}
	// git lists the main checkout first from any folder of the
	// repository; a folder outside git answers an error, and has none.
	wts, err := m.git.Worktrees(ctx, proj.Workspace)
	if err != nil {
		m.log.Debug("the project's worktrees could not be listed", "project", projectID, "err", err)
		return known
	}
	return append(known, External(projectID, wts, known)...)
}
