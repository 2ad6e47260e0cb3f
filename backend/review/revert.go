package review

import (
	"context"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// RevertRequest is POST /api/workspaces/{id}/review/revert.
type RevertRequest struct {
	Path string `json:"path"`
}

// Revert puts one file back to the merge-base's version (removed when it
// did not exist there; a renamed file back under its old name), in the worktree only, through a checkpoint taken
// first (backend/checkpoints): the record is journaled and its undo
// (POST /api/checkpoints/{id}/undo) brings the file back. Refused while a
// run works in the workspace.
func (r *Reviewer) Revert(ctx context.Context, id string, req RevertRequest) (run.CheckpointResult, error) {
	if req.Path == "" {
		return run.CheckpointResult{}, invalid("path is required: the file to revert")
	}
	w, err := r.workspace(ctx, id)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	if live, err := r.Store.WorkspaceRunLive(ctx, id); err != nil {
		return run.CheckpointResult{}, fmt.Errorf("the workspace's runs could not be read: %w", err)
	} else if live {
		return run.CheckpointResult{}, refused("a run is working in this workspace: stop it or wait for its end before reverting a file")
	}
	work, err := readWork(ctx, w)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	if _, ok := work.blobs[req.Path]; !ok {
		return run.CheckpointResult{}, notFound(req.Path + " is not changed in this workspace")
	}
	sessions, err := r.Store.ListSessions(ctx, w.ProjectID)
	if err != nil {
		return run.CheckpointResult{}, fmt.Errorf("the workspace's sessions could not be read: %w", err)
	}
	sid := SessionFor(sessions, id, "")
	if sid == "" {
		sid = id // listed under the workspace when no session works in it
	}
	paths := []string{req.Path}
	if old, ok := work.renames[req.Path]; ok {
		paths = append(paths, old) // a rename goes back to its old name
	}
	res, err := checkpoints.Revert(ctx, r.Store, checkpoints.RevertTarget{DataDir: r.DataDir, Workspace: w.Path,
		SessionID: sid, Source: work.mergeBase, Paths: paths})
	if res.Checkpoint != nil && r.Checkpoint != nil {
		r.Checkpoint(res.Checkpoint)
	}
	r.changed(id)
	if err != nil {
		return res, err
	}
	return res, nil
}
