package checkpoints

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Recover finishes or drops what a crash cut short (docs/ARCHITECTURE.md
// §Checkpoints): a checkpoint still "taking" is kept when its ref was
// written, else dropped; an undo or restore still "applying" is kept as
// interrupted (its Before holds the files as they were before it, so it
// can be undone). Called once at start, before any run starts.
func Recover(ctx context.Context, l Ledger) error {
	for _, st := range []run.CheckpointState{run.CheckpointTaking, run.CheckpointApplying} {
		recs, err := l.ListCheckpoints(ctx, run.CheckpointFilter{State: st})
		if err != nil {
			return fmt.Errorf("checkpoints: read the checkpoints cut short: %w", err)
		}
		for _, r := range recs {
			if err := recoverOne(ctx, l, r); err != nil {
				return err
			}
		}
	}
	return nil
}

func recoverOne(ctx context.Context, l Ledger, r run.Checkpoint) error {
	c, err := gitIn(ctx, r.GitDir, "rev-parse", "--verify", "-q", r.Ref+"^{commit}")
	c = strings.TrimSpace(c)
	switch {
	case err != nil || c == "":
		slog.Info("checkpoints: dropped a checkpoint a crash cut short", "id", r.ID, "ref", r.Ref)
		return l.DeleteCheckpoint(ctx, r.ID)
	case r.State == run.CheckpointTaking:
		r.Before, r.State = c, run.CheckpointKept
	default:
		r.Before, r.State = c, run.CheckpointInterrupted
	}
	slog.Info("checkpoints: finished a checkpoint a crash cut short", "id", r.ID, "state", r.State)
	return l.PutCheckpoint(ctx, r)
}
