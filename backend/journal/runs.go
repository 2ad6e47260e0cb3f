package journal

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

const runCols = `id, project_id, session_id, turn_id, user_message_id, assistant_message_id, agent, model, status,
	last_seq, terminal, pending_approval_id, pending_clarify_id, exit_code, error, created_at, started_at, ended_at,
	resumes_at, park_attempts`

func scanRun(sc interface{ Scan(...any) error }) (run.Run, error) {
	var r run.Run
	var status string
	var exit, started, ended sql.NullInt64
	var created int64
	err := sc.Scan(&r.ID, &r.ProjectID, &r.SessionID, &r.TurnID, &r.UserMessageID, &r.AssistantMessageID, &r.Agent,
		&r.Model, &status, &r.LastSeq, &r.Terminal, &r.PendingApprovalID, &r.PendingClarifyID, &exit, &r.Error,
		&created, &started, &ended, &r.ResumesAt, &r.ParkAttempts)
	if err != nil {
		return r, err
	}
	r.Status = run.Status(status)
	r.CreatedAt = fromNanos(created)
	if exit.Valid {
		c := int(exit.Int64)
		r.ExitCode = &c
	}
	if started.Valid {
		t := fromNanos(started.Int64)
		r.StartedAt = &t
	}
	if ended.Valid {
		t := fromNanos(ended.Int64)
		r.EndedAt = &t
	}
	if !r.Terminal {
		// Which controls make sense is the journal's view; the service
		// removes what the agent cannot do (capabilities).
		r.ActiveControls = []string{"cancel", "queue"}
		if r.PendingApprovalID != "" {
			r.ActiveControls = append(r.ActiveControls, "approval")
		}
		if r.PendingClarifyID != "" {
			r.ActiveControls = append(r.ActiveControls, "clarify")
		}
	}
	return r, nil
}

// GetRun returns a run's state: status, last committed seq, terminal flag,
// pending approval/clarify ids, exit code and error.
func (s *Store) GetRun(ctx context.Context, id string) (run.Run, error) {
	return oneOf(ctx, s, "run", id, scanRun, `SELECT `+runCols+` FROM runs WHERE id = ?`)
}

// ListRuns returns matching runs, newest first.
func (s *Store) ListRuns(ctx context.Context, f run.RunFilter) ([]run.Run, error) {
	var where []string
	var args []any
	if f.Active {
		where = append(where, "terminal = 0")
	}
	if f.ProjectID != "" {
		where, args = append(where, "project_id = ?"), append(args, f.ProjectID)
	}
	if f.SessionID != "" {
		where, args = append(where, "session_id = ?"), append(args, f.SessionID)
	}
	q := `SELECT ` + runCols + ` FROM runs`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	if f.Limit <= 0 {
		f.Limit = 200
	}
	q += ` ORDER BY created_at DESC, id LIMIT ?`
	return listOf(ctx, s, "list runs", scanRun, q, append(args, f.Limit)...)
}

// SetRunStatus records a non-terminal status for supervisor bookkeeping
// (e.g. queued → running before the shim's first event). Prefer a
// `status` event, which does the same in the event's own transaction. A
// run ends only with its done event: a terminal status here is refused.
func (s *Store) SetRunStatus(ctx context.Context, runID string, st run.Status) error {
	if !st.Valid() || st.Terminal() {
		return fmt.Errorf("journal: run %s: status %q: a run ends only with its done event: %w", runID, st, ErrInvalid)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE runs SET status = ?,
		started_at = CASE WHEN ? = 'running' THEN COALESCE(started_at, ?) ELSE started_at END
		WHERE id = ? AND terminal = 0`, string(st), string(st), nowNanos(), runID)
	if err != nil {
		return s.wrap("set run status", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.GetRun(ctx, runID); err != nil {
			return err
		}
		return fmt.Errorf("journal: set status of %s: %w", runID, ErrRunTerminal)
	}
	return nil
}
