package workspaces

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// archivedDir holds, per archived workspace, the ignored files moved out
// of its worktree (node_modules, .env, build output): they are not in the
// snapshot, and "never destroy" keeps them
// (docs/ARCHITECTURE.md §Workspaces, "Never destroy").
const archivedDir = ".archived"

// ignoredStash is beside the worktree's folder, wherever it was made
// (<repo>/.worktrees/.archived/<slug>, or in the data dir's folder of the
// repository).
func ignoredStash(path string) string {
	return filepath.Join(filepath.Dir(path), archivedDir, filepath.Base(path))
}

// Archive snapshots the worktree's tracked and untracked files into
// refs/hermesdesk/archive/<id>, moves its ignored files aside, then
// unlocks and removes the worktree; the branch is kept. Refused, with the
// reason and nothing touched, for the main checkout, a worktree the app
// did not make, one someone else locked, or while a run is live.
func (m *Manager) Archive(ctx context.Context, id string) (run.Workspace, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w, err := m.store.GetWorkspace(ctx, id)
	if err != nil {
		return w, err
	}
	if w.Kind != KindWorktree {
		return w, refused("this is the project's main checkout; only worktrees Hermes Desk made can be archived")
	}
	if w.State != StateReady {
		return w, refused(fmt.Sprintf("the workspace is %s, not a ready worktree, so there is nothing to archive", w.State))
	}
	top, err := m.top(ctx, w)
	if err != nil {
		return w, err
	}
	names, err := NamesFor(top, w.ID, "")
	if err != nil {
		return w, err
	}
	live, err := m.store.WorkspaceRunLive(ctx, w.ID)
	if err != nil {
		return w, err
	}
	wt, err := m.find(ctx, top, w.Path)
	if err != nil {
		return w, err
	}
	f := TreeFacts{Main: samePath(w.Path, top), RunLive: live, Listed: wt != nil, SetupRunning: w.SetupStatus == SetupRunning}
	if wt != nil {
		f.Locked, f.LockReason = wt.Locked, wt.LockReason
	}
	if err := CanArchive(w.ID, f); err != nil {
		return w, err
	}
	commit, err := m.git.Snapshot(ctx, w.Path, names.ArchiveRef, "hermesdesk archive "+w.ID)
	if err != nil {
		return w, fmt.Errorf("the worktree's files could not be saved, so it was left as it is: %w", err)
	}
	ignored, err := m.git.Ignored(ctx, w.Path)
	if err != nil {
		return w, fmt.Errorf("the worktree's ignored files could not be listed, so it was left as it is: %w", err)
	}
	stash := ignoredStash(w.Path)
	if err := moveAll(w.Path, stash, ignored); err != nil {
		return w, fmt.Errorf("the worktree's ignored files could not be moved aside, so it was left as it is: %w", err)
	}
	if err := m.git.Unlock(ctx, top, w.Path); err != nil {
		moveAll(stash, w.Path, ignored)
		return w, fmt.Errorf("the worktree could not be unlocked, so it was left as it is: %w", err)
	}
	if err := m.git.RemoveWorktree(ctx, top, w.Path); err != nil {
		// Put it back as it was: locked, its ignored files in place.
		m.git.Lock(ctx, top, w.Path, LockReason(w.ID))
		moveAll(stash, w.Path, ignored)
		return w, fmt.Errorf("the worktree could not be removed, so it was left as it is: %w", err)
	}
	now := time.Now().UTC()
	w.State, w.ArchivedAt = StateArchived, &now
	w.Note = fmt.Sprintf("Archived: files saved in %s (commit %.12s), ignored files in %s; the branch %s is kept.",
		names.ArchiveRef, commit, stash, w.Branch)
	m.log.Info("workspace archived", "workspace", w.ID, "ref", names.ArchiveRef, "commit", commit, "ignored", len(ignored))
	return m.save(ctx, w)
}

// Restore brings an archived workspace back: the same branch checked out
// at the same path, its files as they were at the archive byte for byte
// (content, executable bit, symlinks), its ignored files moved back, and
// git's lock taken again.
func (m *Manager) Restore(ctx context.Context, id string) (run.Workspace, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w, err := m.store.GetWorkspace(ctx, id)
	if err != nil {
		return w, err
	}
	if w.Kind != KindWorktree || w.State != StateArchived {
		return w, refused(fmt.Sprintf("the workspace is %s, not archived, so there is nothing to restore", w.State))
	}
	top, err := m.top(ctx, w)
	if err != nil {
		return w, err
	}
	names, err := NamesFor(top, w.ID, "")
	if err != nil {
		return w, err
	}
	commit, err := m.git.ResolveRef(ctx, top, names.ArchiveRef)
	if err != nil {
		return w, err
	}
	if commit == "" {
		return w, refused("the archived snapshot " + names.ArchiveRef + " is gone (pruned or deleted), so the files cannot be brought back; the branch " + w.Branch + " is still there")
	}
	if _, err := os.Lstat(w.Path); err == nil {
		return w, refused("something is already at " + w.Path + "; move it away first")
	}
	if err := m.git.Prune(ctx, top); err != nil {
		return w, err
	}
	if err := m.git.AddWorktree(ctx, top, w.Path, w.Branch, ""); err != nil {
		return w, fmt.Errorf("the worktree could not be made again: %w", err)
	}
	if err := m.git.PutSnapshot(ctx, w.Path, commit); err != nil {
		return w, fmt.Errorf("the worktree is back but its archived files could not be put in place (they are still in %s): %w", names.ArchiveRef, err)
	}
	stash := ignoredStash(w.Path)
	if err := moveBack(stash, w.Path); err != nil {
		return w, fmt.Errorf("the worktree is back but its ignored files are still in %s: %w", stash, err)
	}
	if err := m.git.Lock(ctx, top, w.Path, LockReason(w.ID)); err != nil {
		return w, err
	}
	// A ready workspace's note says something is wrong (changed outside
	// the app), and the window shows it so: a restore that worked leaves
	// none; the log says where the files came from.
	w.State, w.ArchivedAt, w.Note = StateReady, nil, ""
	m.log.Info("workspace restored", "workspace", w.ID, "from", names.ArchiveRef, "commit", commit)
	return m.save(ctx, w)
}

// Prune drops the snapshots (and moved-aside ignored files) of workspaces
// archived longer than the retention. Only archived workspaces are looked
// at, and one whose folder is back is left alone: never a live tree.
func (m *Manager) Prune(ctx context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	keep := m.Retention
	if keep <= 0 {
		keep = DefaultRetention
	}
	all, err := m.store.ListWorkspaces(ctx, "")
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, w := range all {
		if w.Kind != KindWorktree || w.State != StateArchived || w.ArchivedAt == nil || now.Sub(*w.ArchivedAt) < keep {
			continue
		}
		if _, err := os.Lstat(w.Path); err == nil {
			continue
		}
		top, err := m.top(ctx, w)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		names, _ := NamesFor(top, w.ID, "")
		if c, err := m.git.ResolveRef(ctx, top, names.ArchiveRef); err != nil {
			errs = append(errs, err)
			continue
		} else if c != "" {
			if err := m.git.DeleteRef(ctx, top, names.ArchiveRef, c); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if err := os.RemoveAll(ignoredStash(w.Path)); err != nil {
			errs = append(errs, err)
		}
		w.State = StateGone
		w.Note = fmt.Sprintf("The archive was pruned after %d days; the branch %s is kept.", int(keep.Hours()/24), w.Branch)
		if _, err := m.save(ctx, w); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// moveAll renames each relative path from src to the same place under
// dst. On a failure it moves back what it moved and says which failed.
func moveAll(src, dst string, rel []string) error {
	var done []string
	for _, p := range rel {
		from, to := filepath.Join(src, filepath.FromSlash(p)), filepath.Join(dst, filepath.FromSlash(p))
		err := os.MkdirAll(filepath.Dir(to), 0o755)
		if err == nil {
			err = os.Rename(from, to)
		}
		if err != nil {
			for _, q := range done {
				os.Rename(filepath.Join(dst, filepath.FromSlash(q)), filepath.Join(src, filepath.FromSlash(q)))
			}
			return fmt.Errorf("%s: %w", p, err)
		}
		done = append(done, p)
	}
	return nil
}

// moveBack moves everything under stash back into dir (walking down to
// the paths that are not already there), then removes the emptied stash.
func moveBack(stash, dir string) error {
	if _, err := os.Lstat(stash); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	var rel []string
	var walk func(sub string) error
	walk = func(sub string) error {
		entries, err := os.ReadDir(filepath.Join(stash, sub))
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := filepath.Join(sub, e.Name())
			if st, err := os.Lstat(filepath.Join(dir, p)); err == nil && st.IsDir() && e.IsDir() {
				if err := walk(p); err != nil {
					return err
				}
				continue
			}
			rel = append(rel, filepath.ToSlash(p))
		}
		return nil
	}
	if err := walk(""); err != nil {
		return err
	}
	if err := moveAll(stash, dir, rel); err != nil {
		return err
	}
	return removeEmptyDirs(stash)
}

// removeEmptyDirs removes root and the folders under it that hold no file.
func removeEmptyDirs(root string) error {
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			removeEmptyDirs(filepath.Join(root, e.Name()))
		}
	}
	return os.Remove(root)
}
