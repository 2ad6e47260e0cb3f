package checkpoints

import (
	"context"
	"fmt"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// CheckpointRevert: files written back to another commit's version (a
// review's "Revert", docs/ARCHITECTURE.md §Review); Before and After as
// for an undo, so undoing it brings the files back.
const CheckpointRevert run.CheckpointKind = "revert"

// RevertTarget says which files of which workspace go back to which
// commit's version.
type RevertTarget struct {
	DataDir   string
	Workspace string
	// SessionID is the session the record is listed under.
	SessionID string
	// Source is the commit whose version the files take (a file it
	// lacks is removed).
	Source string
	Paths  []string
}

// Revert writes t.Paths back to their version in t.Source, in the
// workspace's files only (the index, HEAD and branches untouched), as a
// journaled record whose checkpoint is taken before any file is written:
// Undo of the record brings the files back. A file larger than the
// snapshots keep is not touched (its current content could not be
// restored by an undo) and is named.
func Revert(ctx context.Context, l Ledger, t RevertTarget) (run.CheckpointResult, error) {
	s, err := open(ctx, t.DataDir, t.Workspace, 0)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	defer s.Close()
	r := repo{s}
	now, diff, err := r.since(ctx, t.Source)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	// A file not in the base is removed: the revert puts the base's
	// files back, where a restore keeps what was created since unless told.
	w := planWriteBack(only(diff, t.Paths), largeSet(now.LargePaths()), true, revertReasons)
	if len(w.ops) == 0 {
		return run.CheckpointResult{Files: w.files}, nil
	}
	id := newID(string(CheckpointRevert) + "_")
	rec := run.Checkpoint{ID: id, Kind: CheckpointRevert, State: run.CheckpointApplying, SessionID: t.SessionID,
		Workspace: t.Workspace, GitDir: s.GitDir(), Shadow: s.Shadow(), Ref: RefFor(t.SessionID, id), CreatedAt: time.Now()}
	res, err := r.writeBack(ctx, l, rec, now, w)
	if err != nil {
		return res, fmt.Errorf("checkpoints: revert: %w", err)
	}
	return res, nil
}

// revertReasons are what a revert says of a file, by its action.
var revertReasons = map[RestoreAction]string{
	RestoreRemove: "not in the base",
	RestoreSkip:   "not stored: larger than the limit, so it is left as it is",
}
