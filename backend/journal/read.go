package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Page sizes for event reads.
const (
	DefaultPage = 500
	MaxPage     = 10000
)

// Events returns up to limit events of a run with seq > after, in order.
// limit <= 0 means DefaultPage; it is capped at MaxPage.
func (s *Store) Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error) {
	if limit <= 0 {
		limit = DefaultPage
	}
	limit = min(limit, MaxPage)
	out := make([]run.Event, 0, min(limit, 256))
	err := s.scanEvents(ctx, runID, after, limit, func(ev run.Event) error {
		out = append(out, ev)
		return nil
	})
	return out, err
}

// StreamEvents calls fn for every event of a run with seq > after, in
// order, reading row by row (no slice of the whole run). fn's error stops
// the stream and is returned.
func (s *Store) StreamEvents(ctx context.Context, runID string, after int64, fn func(run.Event) error) error {
	return s.scanEvents(ctx, runID, after, -1, fn)
}

func (s *Store) scanEvents(ctx context.Context, runID string, after int64, limit int, fn func(run.Event) error) error {
	var sessionID string
	err := s.db.QueryRowContext(ctx, `SELECT session_id FROM runs WHERE id = ?`, runID).Scan(&sessionID)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("journal: events of run %s: %w", runID, ErrNotFound)
	}
	if err != nil {
		return s.wrap("read events of "+runID, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, type, created_at, payload FROM events
		WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`, runID, max(after, 0), limit)
	if err != nil {
		return s.wrap("read events of "+runID, err)
	}
	defer rows.Close()
	for rows.Next() {
		ev := run.Event{RunID: runID, SessionID: sessionID}
		var t string
		var p []byte
		if err := rows.Scan(&ev.Seq, &t, &ev.CreatedAt, &p); err != nil {
			return s.wrap("read events of "+runID, err)
		}
		ev.Type = run.EventType(t)
		ev.Payload = p
		ev.Terminal = ev.Type == run.EventDone
		ev.EventID = run.EventID(runID, ev.Seq)
		if err := fn(ev); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return s.wrap("read events of "+runID, err)
	}
	return nil
}

// LastSeq is the seq of a run's last committed event (0 if none).
func (s *Store) LastSeq(ctx context.Context, runID string) (int64, error) {
	var last int64
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE((SELECT MAX(seq) FROM events WHERE run_id = runs.id), 0)
		FROM runs WHERE id = ?`, runID).Scan(&last)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("journal: run %s: %w", runID, ErrNotFound)
	}
	if err != nil {
		return 0, s.wrap("read last seq of "+runID, err)
	}
	return last, nil
}
