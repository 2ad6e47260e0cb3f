package workspaces

import (
	"context"
	"io/fs"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Detail is a workspace at a glance (GET /api/workspaces/{id}): its
// record, and for a ready worktree the changed files, the commits ahead of
// and behind its base, and its size on disk.
type Detail struct {
	run.Workspace
	Status
	SizeBytes int64 `json:"size_bytes"`
}

// List returns a project's workspaces ("" = every project's, journaled
// only). A project's list ends with the worktrees of its repository the
// app did not make (External), read-only.
func (m *Manager) List(ctx context.Context, projectID string) ([]run.Workspace, error) {
	list, err := m.store.ListWorkspaces(ctx, projectID)
	if err != nil || projectID == "" {
		return list, err
	}
	return m.withExternal(ctx, projectID, list), nil
}

// Get returns one workspace as recorded.
func (m *Manager) Get(ctx context.Context, id string) (run.Workspace, error) {
	return m.store.GetWorkspace(ctx, id)
}

// Detail checks the workspace (a change outside the app is noticed and
// said) and reads its status from git and its size from the disk.
func (m *Manager) Detail(ctx context.Context, id string) (Detail, error) {
	w, err := m.Check(ctx, id)
	if err != nil {
		return Detail{Workspace: w}, err
	}
	d := Detail{Workspace: w}
	if w.Kind != KindWorktree || w.State != StateReady {
		return d, nil
	}
	st, err := m.git.Status(ctx, w.Path, w.Base)
	if err != nil {
		m.log.Info("workspace status could not be read", "workspace", id, "err", err)
	}
	d.Status = st
	d.SizeBytes = diskSize(w.Path)
	return d, nil
}

// diskSize adds up the sizes of the files under dir (symlinks not
// followed); unreadable parts are skipped.
func diskSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.Type().IsRegular() {
			if info, err := e.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// Assign puts a session in a workspace ("" = the project's checkout). A
// worktree must be ready: a run in an archived or half-made one could not
// start.
func (m *Manager) Assign(ctx context.Context, sessionID, workspaceID string) error {
	if workspaceID != "" {
		w, err := m.store.GetWorkspace(ctx, workspaceID)
		if err != nil {
			return err
		}
		if w.Kind == KindWorktree && w.State != StateReady {
			return refused("the workspace is " + w.State + ", not ready; restore it or choose another")
		}
	}
	return m.store.SetSessionWorkspace(ctx, sessionID, workspaceID)
}
