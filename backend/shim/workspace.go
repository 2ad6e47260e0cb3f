package shim

import (
	"context"
	"errors"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
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
	if r.takeCheckpoint(ctx) {
		return
	}
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

// takeCheckpoint keeps the workspace's files before the run
// (docs/ARCHITECTURE.md §Checkpoints) when the journal keeps checkpoints;
// its snapshot is the run's start snapshot too (one snapshot, not two).
// False: no checkpoint, the plain snapshot is taken instead.
func (r *runner) takeCheckpoint(ctx context.Context) bool {
	l, ok := r.j.(checkpoints.Ledger)
	if !ok || r.spec.NoCheckpoint {
		return false
	}
	k, err := checkpoints.Before(ctx, l, checkpoints.Target{DataDir: r.spec.DataDir, Workspace: r.spec.Workspace,
		SessionID: r.spec.SessionID, TurnID: r.spec.TurnID, RunID: r.spec.RunID, MaxFileSize: r.spec.CheckpointMaxFileBytes})
	if err != nil {
		if !errors.Is(err, checkpoints.ErrNoCheckpoint) && ctx.Err() == nil {
			r.log.Warn("checkpoint before the run", "err", err)
		}
		return false
	}
	r.checkpoint = k
	if k.Record().Shadow {
		// A plain folder: its files are kept for undo, and its
		// file.changed still come from the agent alone, as before.
		return true
	}
	r.snaps, r.base = k.Snaps, k.Base
	return true
}

// keepCheckpointAfter keeps the files after the run for its undo.
func (r *runner) keepCheckpointAfter(ctx context.Context, now changes.Snap) {
	if r.checkpoint == nil {
		return
	}
	if err := r.checkpoint.After(ctx, now); err != nil {
		r.log.Warn("checkpoint after the run", "err", err)
	}
}

// workspaceChanges journals one file.changed (source workspace) per file
// that differs between the start snapshot and now: the run's net change,
// whatever tool (or shell command) made it. Another run working in the same
// workspace at the same time shows up here too: a snapshot cannot tell
// whose write it was. A forced stop interrupts it.
func (r *runner) workspaceChanges(ctx context.Context) {
	if r.snaps == nil && r.checkpoint == nil {
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
	if r.snaps == nil { // a plain folder's checkpoint
		if now, err := r.checkpoint.Snaps.Snapshot(ctx); err == nil {
			r.keepCheckpointAfter(ctx, now)
		} else {
			r.log.Warn("checkpoint after the run", "err", err)
		}
		return
	}
	now, err := r.snaps.Snapshot(ctx)
	if err != nil {
		r.snapshotFailed(ctx, "workspace snapshot at end", err, endSnapshotFailed)
		return
	}
	r.keepCheckpointAfter(ctx, now)
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
