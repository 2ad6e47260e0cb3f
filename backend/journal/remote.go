package journal

import "context"

// The cursors of backend/remote's followers (docs/ARCHITECTURE.md §Remote
// cores): for each host, each run's last seq this side received. They
// live in the journal so a restart — even after kill -9 — resumes where
// the last commit left off.

// RemoteCursors returns host's cursors: run id → last received seq.
func (s *Store) RemoteCursors(ctx context.Context, host string) (map[string]int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT run_id, seq FROM remote_cursors WHERE host = ?`, host)
	if err != nil {
		return nil, s.wrap("read remote cursors", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id string
		var seq int64
		if err := rows.Scan(&id, &seq); err != nil {
			return nil, s.wrap("read remote cursors", err)
		}
		out[id] = seq
	}
	return out, s.wrap("read remote cursors", rows.Err())
}

// SetRemoteCursor moves host's cursor of a run forward (never back).
func (s *Store) SetRemoteCursor(ctx context.Context, host, runID string, seq int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO remote_cursors (host, run_id, seq) VALUES (?, ?, ?)
		ON CONFLICT (host, run_id) DO UPDATE SET seq = max(seq, excluded.seq)`, host, runID, seq)
	return s.wrap("keep remote cursors", err)
}
