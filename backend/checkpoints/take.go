package checkpoints

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Target is the run a checkpoint is taken for.
type Target struct {
	DataDir   string
	Workspace string
	SessionID string
	TurnID    string // "" takes the run id
	RunID     string
	// MaxFileSize: files above it are noted, not stored (0: MaxFileSize).
	MaxFileSize int64
}

// Taken is a run's checkpoint: Snaps and Base are the snapshots the run's
// file.changed diff uses too (one snapshot, not two).
type Taken struct {
	Snaps *changes.Snapshots
	Base  changes.Snap
	rec   run.Checkpoint
	l     Ledger
}

// Before keeps the workspace's files before a run. ErrNoCheckpoint: the
// folder is not checkpointed (no git and no data dir, or too wide).
func Before(ctx context.Context, l Ledger, t Target) (*Taken, error) {
	s, err := open(ctx, t.DataDir, t.Workspace, t.MaxFileSize)
	if err != nil {
		return nil, err
	}
	turn := t.TurnID
	if turn == "" {
		turn = t.RunID
	}
	rec := run.Checkpoint{ID: "cp_" + t.RunID, Kind: run.CheckpointRun, State: run.CheckpointTaking,
		SessionID: t.SessionID, TurnID: t.TurnID, RunID: t.RunID, Workspace: t.Workspace,
		GitDir: s.GitDir(), Shadow: s.Shadow(), Ref: RefFor(t.SessionID, turn), CreatedAt: time.Now()}
	k := &Taken{Snaps: s, rec: rec, l: l}
	if err := k.keepBefore(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return k, nil
}

func (k *Taken) keepBefore(ctx context.Context) error {
	if err := k.l.PutCheckpoint(ctx, k.rec); err != nil {
		return fmt.Errorf("checkpoints: record the checkpoint: %w", err)
	}
	step("recorded")
	base, err := k.Snaps.Snapshot(ctx)
	if err != nil {
		k.drop()
		return err
	}
	c, err := repo{k.Snaps}.commit(ctx, base.Tree, "", k.rec.Ref, "Hermes Desk: before run "+k.rec.RunID)
	if err != nil {
		k.drop()
		return err
	}
	k.Base = base
	k.rec.Before, k.rec.Large, k.rec.State = c, base.LargePaths(), run.CheckpointKept
	k.rec.Head = k.head(ctx)
	if err := k.l.PutCheckpoint(ctx, k.rec); err != nil {
		// The ref is written: Recover finishes the record at start.
		return fmt.Errorf("checkpoints: record the checkpoint: %w", err)
	}
	return nil
}

// head is the repository's HEAD commit, which a fork branches from
// (docs/ARCHITECTURE.md §Checkpoints); "" for a plain folder or an unborn branch.
func (k *Taken) head(ctx context.Context) string {
	if k.Snaps.Shadow() {
		return ""
	}
	out, err := repo{k.Snaps}.git(ctx, "", "rev-parse", "--verify", "-q", "HEAD^{commit}")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// drop forgets a checkpoint that could not be taken.
func (k *Taken) drop() {
	k.l.DeleteCheckpoint(context.Background(), k.rec.ID) // even when ctx was cancelled
}

// Record is the checkpoint's record as it stands.
func (k *Taken) Record() run.Checkpoint { return k.rec }

// After keeps the files after the run (now: the run's end snapshot), which
// Undo reverses to.
func (k *Taken) After(ctx context.Context, now changes.Snap) error {
	c, err := repo{k.Snaps}.commit(ctx, now.Tree, k.rec.Before, AfterRef(k.rec.Ref), "Hermes Desk: after run "+k.rec.RunID)
	if err != nil {
		return err
	}
	k.rec.After = c
	k.rec.Large = mergeSorted(k.rec.Large, now.LargePaths())
	return k.l.PutCheckpoint(ctx, k.rec)
}

// Close ends the snapshots' temporary folder.
func (k *Taken) Close() error { return k.Snaps.Close() }

func mergeSorted(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range [][]string{a, b} {
		for _, p := range l {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}
