package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The checkpoints table: one row per checkpoint record, written by
// backend/checkpoints through its Ledger (docs/ARCHITECTURE.md
// §Checkpoints). A row is written "taking" before any git command and
// moved on after, so a crash between is finished or dropped at start.

const checkpointCols = `id, kind, state, session_id, turn_id, run_id, target, workspace, git_dir, shadow,
	ref, before, after, large, files, created_at, head`

// PutCheckpoint inserts or replaces one checkpoint record.
func (s *Store) PutCheckpoint(ctx context.Context, c run.Checkpoint) error {
	if c.ID == "" || c.SessionID == "" || c.GitDir == "" || c.Ref == "" {
		return fmt.Errorf("journal: checkpoint: id, session, git dir and ref are required: %w", ErrInvalid)
	}
	at := nowNanos()
	if !c.CreatedAt.IsZero() {
		at = c.CreatedAt.UnixNano()
	}
	_, err := s.db.ExecContext(ctx, `INSERT OR REPLACE INTO checkpoints (`+checkpointCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.Kind, c.State, c.SessionID, c.TurnID, c.RunID, c.Target, c.Workspace, c.GitDir, c.Shadow,
		c.Ref, c.Before, c.After, jsonList(c.Large), jsonList(c.Files), at, c.Head)
	return s.wrap("store checkpoint "+c.ID, err)
}

// GetCheckpoint returns one record or ErrNotFound.
func (s *Store) GetCheckpoint(ctx context.Context, id string) (run.Checkpoint, error) {
	cs, err := s.queryCheckpoints(ctx, `WHERE id = ?`, id)
	if err != nil {
		return run.Checkpoint{}, err
	}
	if len(cs) == 0 {
		return run.Checkpoint{}, fmt.Errorf("journal: checkpoint %s: %w", id, ErrNotFound)
	}
	return cs[0], nil
}

// ListCheckpoints lists the records f selects, oldest first.
func (s *Store) ListCheckpoints(ctx context.Context, f run.CheckpointFilter) ([]run.Checkpoint, error) {
	var where []string
	var args []any
	for _, c := range []struct{ col, v string }{
		{"session_id", f.SessionID}, {"run_id", f.RunID}, {"turn_id", f.TurnID},
		{"kind", string(f.Kind)}, {"state", string(f.State)},
	} {
		if c.v != "" {
			where = append(where, c.col+" = ?")
			args = append(args, c.v)
		}
	}
	q := ""
	if len(where) > 0 {
		q = "WHERE " + strings.Join(where, " AND ")
	}
	return s.queryCheckpoints(ctx, q, args...)
}

// DeleteCheckpoint removes one record (its refs are the caller's).
func (s *Store) DeleteCheckpoint(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM checkpoints WHERE id = ?`, id)
	return s.wrap("delete checkpoint "+id, err)
}

func (s *Store) queryCheckpoints(ctx context.Context, where string, args ...any) ([]run.Checkpoint, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+checkpointCols+` FROM checkpoints `+where+` ORDER BY created_at, id`, args...)
	if err != nil {
		return nil, s.wrap("list checkpoints", err)
	}
	defer rows.Close()
	var out []run.Checkpoint
	for rows.Next() {
		var c run.Checkpoint
		var large, files string
		var at int64
		if err := rows.Scan(&c.ID, &c.Kind, &c.State, &c.SessionID, &c.TurnID, &c.RunID, &c.Target, &c.Workspace,
			&c.GitDir, &c.Shadow, &c.Ref, &c.Before, &c.After, &large, &files, &at, &c.Head); err != nil {
			return nil, s.wrap("list checkpoints", err)
		}
		c.Large, c.Files = parseList(large), parseList(files)
		c.CreatedAt = fromNanos(at)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, s.wrap("list checkpoints", err)
	}
	return out, nil
}

func jsonList(l []string) string {
	if len(l) == 0 {
		return ""
	}
	b, _ := json.Marshal(l)
	return string(b)
}

func parseList(s string) []string {
	var l []string
	if s != "" {
		json.Unmarshal([]byte(s), &l)
	}
	return l
}
