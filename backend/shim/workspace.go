package shim

import (
	"context"
	"errors"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// snapshotTimeout bounds each workspace snapshot: a huge untracked tree
// must not hold up the run; the run then reports only what the agent named
// and says so in a notice.
const snapshotTimeout = 10 * time.Second

// snapshotWorkspace records the git workspace's state before the agent
// starts, so the run's end can say what changed
// (docs/ARCHITECTURE.md §Events, "file.changed"). A cancel interrupts it.
func (r *runner) snapshotWorkspace(ctx context.Context) {
	if r.spec.Workspace == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, snapshotTimeout)
	defer cancel()
	r.mu.Lock()
	if r.cancelled {
		r.mu.Unlock()
		return
	}
	r.snapCancel = cancel
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.snapCancel = nil
		r.mu.Unlock()
	}()
	snaps, err := changes.Open(ctx, r.spec.Workspace)
	if err != nil {
		if !errors.Is(err, changes.ErrNotGit) {
			r.snapshotFailed(ctx, "workspace snapshot at start", err, startSnapshotFailed)
		}
		return
	}
	base, err := snaps.Snapshot(ctx)
	if err != nil {
		snaps.Close()
		r.snapshotFailed(ctx, "workspace snapshot at start", err, startSnapshotFailed)
		return
	}
	r.snaps, r.base = snaps, base
}

// workspaceChanges journals one file.changed (source workspace) per file
// that differs between the start snapshot and now: the run's net change,
// whatever tool (or shell command) made it. Another run working in the same
// workspace at the same time shows up here too: a snapshot cannot tell
// whose write it was. A forced stop interrupts it.
func (r *runner) workspaceChanges(ctx context.Context) {
	if r.snaps == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), snapshotTimeout)
	defer cancel()
	go func() {
		select {
		case <-r.forced:
			cancel()
		case <-ctx.Done():
		}
	}()
	now, err := r.snaps.Snapshot(ctx)
	if err != nil {
		r.snapshotFailed(ctx, "workspace snapshot at end", err, endSnapshotFailed)
		return
	}
	files, err := r.snaps.Between(ctx, r.base, now)
	if err != nil {
		r.snapshotFailed(ctx, "workspace diff", err, endSnapshotFailed)
		return
	}
	for _, f := range files {
		r.append(run.EventFileChanged, f)
	}
}

// The notices a run gets when its workspace changes cannot be listed; the
// reason follows.
const (
	startSnapshotFailed = "The files this run changes will not be listed: "
	endSnapshotFailed   = "The files this run changed could not be listed: "
)

// snapshotFailed logs the details and tells the run in plain words; a
// snapshot a cancel interrupted needs no notice (the person stopped it).
func (r *runner) snapshotFailed(ctx context.Context, what string, err error, notice string) {
	r.log.Warn(what, "err", err)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		notice += "looking at the workspace took longer than 10 s."
	case ctx.Err() != nil:
		if what == "workspace snapshot at start" {
			return
		}
		notice += "the run was stopped first."
	default:
		notice += "git could not look at the workspace (the run's log says why)."
	}
	r.append(run.EventNotice, run.Notice{Message: notice})
}
