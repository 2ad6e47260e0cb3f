package checkpoints

import (
	"context"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// RestoreOptions: Preview only says what would change; RemoveCreated also
// removes the files created since the checkpoint (kept otherwise).
type RestoreOptions struct {
	Preview       bool
	RemoveCreated bool
}

// Restore puts a session's workspace files back as they were before turn
// (its run's checkpoint). The restore is itself a record, so it can be
// undone.
func Restore(ctx context.Context, l Ledger, dataDir, sessionID, turnID string, o RestoreOptions) (run.CheckpointResult, error) {
	target, err := TurnCheckpoint(ctx, l, sessionID, turnID)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	s, err := openFor(ctx, dataDir, target)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	defer s.Close()
	r := repo{s}
	now, diff, err := r.since(ctx, target.Before)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	w := planWriteBack(diff, largeSet(target.Large, now.LargePaths()), o.RemoveCreated, restoreReasons)
	if o.Preview {
		return run.CheckpointResult{Files: w.files, Preview: true}, nil
	}
	return r.writeBack(ctx, l, newRecord(target, run.CheckpointRestore), now, w)
}

// restoreReasons are what a restore says of a file, by its action.
var restoreReasons = map[RestoreAction]string{
	RestoreRemove: "created since",
	RestoreKeep:   "created since; kept",
	RestoreSkip:   "not stored: larger than the limit",
}

// TurnCheckpoint is the checkpoint kept before a session's turn (its
// newest run's, when the turn ran again).
func TurnCheckpoint(ctx context.Context, l Ledger, sessionID, turnID string) (run.Checkpoint, error) {
	recs, err := l.ListCheckpoints(ctx, run.CheckpointFilter{SessionID: sessionID, TurnID: turnID, Kind: run.CheckpointRun})
	if err != nil {
		return run.Checkpoint{}, err
	}
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Before != "" && recs[i].State == run.CheckpointKept {
			return recs[i], nil
		}
	}
	return run.Checkpoint{}, fmt.Errorf("checkpoints: no checkpoint was kept before turn %s: %w", turnID, errdefs.ErrNotFound)
}

// RunCheckpoint is the checkpoint record of a run.
func RunCheckpoint(ctx context.Context, l Ledger, runID string) (run.Checkpoint, error) {
	recs, err := l.ListCheckpoints(ctx, run.CheckpointFilter{RunID: runID, Kind: run.CheckpointRun})
	if err != nil {
		return run.Checkpoint{}, err
	}
	if len(recs) == 0 {
		return run.Checkpoint{}, fmt.Errorf("checkpoints: no checkpoint was kept for run %s (its folder is not checkpointed, or it was pruned): %w", runID, errdefs.ErrNotFound)
	}
	return recs[len(recs)-1], nil
}
