package service

import (
	"context"
	"errors"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Checkpoints: undo a run, restore a session's files to before a turn,
// and the disk they use (docs/ARCHITECTURE.md §Checkpoints). The work is
// backend/checkpoints'; this is the one door every transport calls.

// CheckpointStore is the journal's checkpoints table (checkpoints.Ledger)
// and a forked session's handover (fork.go).
type CheckpointStore interface {
	checkpoints.Ledger
	HandoverStore
}

// SetCheckpoints connects the checkpoints (the stack does): their ledger
// and the data dir that holds plain folders' shadow repositories. Without
// it the checkpoint routes are unavailable.
func (s *Service) SetCheckpoints(l CheckpointStore, dataDir string) {
	s.checkpoints, s.checkpointsDir = l, dataDir
}

func (s *Service) checkpointLedger() (CheckpointStore, error) {
	if s.checkpoints == nil {
		return nil, &Error{Code: CodeUnavailable, Message: "checkpoints are not available here"}
	}
	return s.checkpoints, nil
}

// UndoRun reverses exactly what a run changed in its workspace. Files
// changed since on the same lines stop it before anything changes, named
// in the error (a conflict). The undo is itself undoable (UndoCheckpoint).
func (s *Service) UndoRun(ctx context.Context, runID string) (run.CheckpointResult, error) {
	l, err := s.checkpointLedger()
	if err != nil {
		return run.CheckpointResult{}, err
	}
	r, err := s.store.GetRun(ctx, runID)
	if err != nil {
		return run.CheckpointResult{}, s.classify(ctx, "undo run", "run", err)
	}
	if !r.Status.Terminal() {
		return run.CheckpointResult{}, &Error{Code: CodeConflict, Message: "the run is still going: stop it or wait for its end before undoing it"}
	}
	rec, err := checkpoints.RunCheckpoint(ctx, l, runID)
	if err != nil {
		return run.CheckpointResult{}, s.classify(ctx, "undo run", "checkpoint", err)
	}
	return s.undo(ctx, l, rec)
}

// UndoCheckpoint undoes an undo or a restore (or a run, by its record).
func (s *Service) UndoCheckpoint(ctx context.Context, id string) (run.CheckpointResult, error) {
	l, err := s.checkpointLedger()
	if err != nil {
		return run.CheckpointResult{}, err
	}
	rec, err := l.GetCheckpoint(ctx, id)
	if err != nil {
		return run.CheckpointResult{}, s.classify(ctx, "undo", "checkpoint", err)
	}
	return s.undo(ctx, l, rec)
}

func (s *Service) undo(ctx context.Context, l CheckpointStore, rec run.Checkpoint) (run.CheckpointResult, error) {
	s.checkpointMu.Lock()
	defer s.checkpointMu.Unlock()
	if err := s.sessionIdle(ctx, rec.SessionID, "undoing"); err != nil {
		return run.CheckpointResult{}, err
	}
	res, err := checkpoints.Undo(ctx, l, s.checkpointsDir, rec.ID)
	s.checkpointChanged(res.Checkpoint)
	return res, s.checkpointError(ctx, "undo", err)
}

// sessionIdle refuses to change a session's files while one of its runs
// is going: the agent would be writing into what is being put back.
func (s *Service) sessionIdle(ctx context.Context, sessionID, doing string) error {
	active, err := s.store.ListRuns(ctx, run.RunFilter{Active: true, SessionID: sessionID})
	if err != nil {
		return s.classify(ctx, "list active runs", "session", err)
	}
	if len(active) > 0 {
		return &Error{Code: CodeConflict, Message: "a run of this session is still going: stop it or wait for its end before " + doing + " files"}
	}
	return nil
}

// RestoreRequest is POST /api/sessions/{id}/restore?turn=…&preview=1.
type RestoreRequest struct {
	SessionID string
	TurnID    string
	Preview   bool
	// RemoveCreated also removes the files created since (kept otherwise).
	RemoveCreated bool
}

// Restore puts a session's files back as they were before a turn; with
// Preview it only says what would change.
func (s *Service) Restore(ctx context.Context, req RestoreRequest) (run.CheckpointResult, error) {
	l, err := s.checkpointLedger()
	if err != nil {
		return run.CheckpointResult{}, err
	}
	if req.TurnID == "" {
		return run.CheckpointResult{}, badRequest("turn is required: the turn whose checkpoint to restore")
	}
	s.checkpointMu.Lock()
	defer s.checkpointMu.Unlock()
	if !req.Preview {
		if err := s.sessionIdle(ctx, req.SessionID, "restoring"); err != nil {
			return run.CheckpointResult{}, err
		}
	}
	res, err := checkpoints.Restore(ctx, l, s.checkpointsDir, req.SessionID, req.TurnID,
		checkpoints.RestoreOptions{Preview: req.Preview, RemoveCreated: req.RemoveCreated})
	s.checkpointChanged(res.Checkpoint)
	return res, s.checkpointError(ctx, "restore", err)
}

// Checkpoints lists a session's checkpoint records, oldest first: the
// transcript shows its undos and restores at their time.
func (s *Service) Checkpoints(ctx context.Context, sessionID string) ([]run.Checkpoint, error) {
	l, err := s.checkpointLedger()
	if err != nil {
		return nil, err
	}
	recs, err := l.ListCheckpoints(ctx, run.CheckpointFilter{SessionID: sessionID})
	return recs, s.classify(ctx, "list checkpoints", "session", err)
}

// CheckpointUsage is GET /api/checkpoints/usage: the disk the kept
// checkpoints use.
func (s *Service) CheckpointUsage(ctx context.Context) (checkpoints.Usage, error) {
	l, err := s.checkpointLedger()
	if err != nil {
		return checkpoints.Usage{}, err
	}
	u, err := checkpoints.DiskUsage(ctx, l)
	return u, s.classify(ctx, "checkpoint usage", "checkpoints", err)
}

// PruneCheckpoints applies the retention settings (the stack's
// maintenance calls it).
func (s *Service) PruneCheckpoints(ctx context.Context) (int, error) {
	l, err := s.checkpointLedger()
	if err != nil {
		return 0, err
	}
	settings, err := s.store.GetSettings(ctx)
	if err != nil {
		return 0, s.classify(ctx, "prune checkpoints", "settings", err)
	}
	return checkpoints.Prune(ctx, l, checkpoints.PolicyFrom(settings), time.Now())
}

// checkpointError words an undo's or restore's failure: a conflict names
// its files (paths in the workspace, safe to show).
func (s *Service) checkpointError(ctx context.Context, op string, err error) error {
	var ce *checkpoints.ConflictError
	if errors.As(err, &ce) {
		return &Error{Code: CodeConflict, Message: ce.Error(), Err: err}
	}
	return s.classify(ctx, op, "checkpoint", err)
}

// checkpointChanged publishes checkpoint.changed for a new record.
func (s *Service) checkpointChanged(c *run.Checkpoint) {
	if c == nil {
		return
	}
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	cp := *c
	b.publishLocked(run.WatchMessage{Type: run.WatchCheckpointChanged, Checkpoint: &cp})
}
