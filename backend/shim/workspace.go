package shim

import (
	"context"
	"errors"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// snapshotTimeout bounds each workspace snapshot: a huge untracked tree
// must not hold up the run; the run then reports only what the agent named.
const snapshotTimeout = 10 * time.Second

// snapshotWorkspace records the git workspace's state before the agent
// starts, so the run's end can say what changed
// (docs/ARCHITECTURE.md §Events, "file.changed").
func (r *runner) snapshotWorkspace(ctx context.Context) {
	if r.spec.Workspace == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, snapshotTimeout)
	defer cancel()
	tree, err := changes.Snapshot(ctx, r.spec.Workspace)
	if err != nil {
		if !errors.Is(err, changes.ErrNotGit) {
			r.log.Warn("workspace snapshot at start", "err", err)
		}
		return
	}
	r.baseTree = tree
}

// workspaceChanges journals one file.changed (source workspace) per file
// that differs between the start snapshot and now: the run's net change,
// whatever tool (or shell command) made it. Another run working in the same
// workspace at the same time shows up here too: a snapshot cannot tell
// whose write it was.
func (r *runner) workspaceChanges(ctx context.Context) {
	if r.baseTree == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), snapshotTimeout)
	defer cancel()
	tree, err := changes.Snapshot(ctx, r.spec.Workspace)
	if err != nil {
		r.log.Warn("workspace snapshot at end", "err", err)
		return
	}
	files, err := changes.Between(ctx, r.spec.Workspace, r.baseTree, tree)
	if err != nil {
		r.log.Warn("workspace diff", "err", err)
		return
	}
	for _, f := range files {
		r.append(run.EventFileChanged, f)
	}
}
