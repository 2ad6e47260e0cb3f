package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// CompactStats says what Compact did.
type CompactStats struct {
	Runs          int   `json:"runs"`
	EventsRemoved int64 `json:"events_removed"`
	MarkersAdded  int64 `json:"markers_added"`
}

// Compact is retention (off unless a caller runs it): for terminal runs
// that ended more than olderThan ago, each maximal stretch of consecutive
// token.delta (or reasoning.delta) events is replaced by one `compacted`
// event at the stretch's first seq carrying the assembled text
// (run.Compacted). Replay stays ordered and renders the same transcript.
//
// Consequence: a compacted run's seqs have gaps (a marker at from_seq
// stands for from_seq..to_seq). Seqs still only increase, so cursors keep
// working; a client whose cursor points inside a compacted stretch (it saw
// part of the run, then was away for olderThan) misses that stretch's rest
// and should reload the run from the start. Compaction never moves a
// session's updated_at and never touches live runs.
func (s *Store) Compact(ctx context.Context, olderThan time.Duration) (CompactStats, error) {
	var st CompactStats
	cutoff := time.Now().Add(-olderThan).UnixNano()
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM runs r WHERE terminal = 1 AND ended_at < ?
		AND EXISTS (SELECT 1 FROM events e WHERE e.run_id = r.id AND e.type IN ('token.delta', 'reasoning.delta'))`, cutoff)
	if err != nil {
		return st, s.wrap("compact", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return st, s.wrap("compact", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		// One transaction per run keeps the write lock short for shims.
		removed, added, err := s.compactRun(ctx, id)
		if err != nil {
			return st, err
		}
		st.Runs++
		st.EventsRemoved += removed
		st.MarkersAdded += added
	}
	return st, nil
}

type segment struct {
	typ      run.EventType
	from, to int64
	n        int
	text     strings.Builder
}

func (s *Store) compactRun(ctx context.Context, runID string) (removed, added int64, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, s.wrap("compact "+runID, err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT seq, type, payload FROM events WHERE run_id = ? ORDER BY seq`, runID)
	if err != nil {
		return 0, 0, s.wrap("compact "+runID, err)
	}
	var segs []*segment
	var cur *segment
	for rows.Next() {
		var seq int64
		var t string
		var p []byte
		if err := rows.Scan(&seq, &t, &p); err != nil {
			rows.Close()
			return 0, 0, s.wrap("compact "+runID, err)
		}
		typ := run.EventType(t)
		if !isDelta(typ) {
			cur = nil
			continue
		}
		if cur == nil || cur.typ != typ {
			cur = &segment{typ: typ, from: seq}
			segs = append(segs, cur)
		}
		var d run.TextDelta
		_ = json.Unmarshal(p, &d)
		cur.text.WriteString(d.Text)
		cur.to = seq
		cur.n++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, s.wrap("compact "+runID, err)
	}
	for _, sg := range segs {
		c := run.Compacted{FromSeq: sg.from, ToSeq: sg.to, Events: sg.n}
		if sg.typ == run.EventTokenDelta {
			c.Text = sg.text.String()
		} else {
			c.Reasoning = sg.text.String()
		}
		payload, _ := json.Marshal(c)
		var at float64
		if err := tx.QueryRowContext(ctx, `SELECT created_at FROM events WHERE run_id = ? AND seq = ?`, runID, sg.from).Scan(&at); err != nil {
			return 0, 0, s.wrap("compact "+runID, err)
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM events WHERE run_id = ? AND seq BETWEEN ? AND ?`, runID, sg.from, sg.to)
		if err != nil {
			return 0, 0, s.wrap("compact "+runID, err)
		}
		if n, _ := res.RowsAffected(); n != int64(sg.n) {
			return 0, 0, fmt.Errorf("journal: compact %s: seq %d..%d held %d events, expected %d", runID, sg.from, sg.to, n, sg.n)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, ?, 'compacted', ?, ?)`,
			runID, sg.from, at, payload); err != nil {
			return 0, 0, s.wrap("compact "+runID, err)
		}
		removed += int64(sg.n)
		added++
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, s.wrap("compact "+runID, err)
	}
	return removed, added, nil
}

// SettingRetentionDays is the setting (a JSON number of days) that turns
// retention on; absent or <= 0 (the default) keeps every event.
const SettingRetentionDays = "retention_days"

// RetentionDays is the retention setting's age in days; 0 when retention
// is off (absent, or <= 0).
func (s *Store) RetentionDays(ctx context.Context) (float64, error) {
	var raw string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, SettingRetentionDays).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, s.wrap("read retention setting", err)
	}
	var days float64
	if err := json.Unmarshal([]byte(raw), &days); err != nil {
		return 0, fmt.Errorf("journal: setting %s = %s: not a number of days: %w", SettingRetentionDays, raw, ErrInvalid)
	}
	return max(days, 0), nil
}

// ApplyRetention runs Compact with the age from SettingRetentionDays, or
// does nothing when retention is off. The stack runs it soon after start
// when retention is on, and every 6 h (backend/service/stack maintain).
func (s *Store) ApplyRetention(ctx context.Context) (CompactStats, error) {
	days, err := s.RetentionDays(ctx)
	if err != nil || days == 0 {
		return CompactStats{}, err
	}
	return s.Compact(ctx, time.Duration(days*24*float64(time.Hour)))
}
