package journal

import "context"

// The cursors of backend/remote's followers (docs/ARCHITECTURE.md §Remote
// cores): for each host, each run's last seq this side received. They
// live in the journal so a restart — even after kill -9 — resumes where
// the last commit left off.

// RemoteCursors returns host's cursors: run id → last received seq.
func (s *Store) RemoteCursors(ctx context.Context, host string) (map[string]int64, error) {
	type cursor struct {
		run string
		seq int64
	}
	list, err := listOf(ctx, s, "read remote cursors", func(sc rowScanner) (cursor, error) {
		var c cursor
		err := sc.Scan(&c.run, &c.seq)
		return c, err
	}, `SELECT run_id, seq FROM remote_cursors WHERE host = ?`, host)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(list))
	for _, c := range list {
		out[c.run] = c.seq
	}
	return out, nil
}

// SetRemoteCursor moves host's cursor of a run forward (never back).
func (s *Store) SetRemoteCursor(ctx context.Context, host, runID string, seq int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO remote_cursors (host, run_id, seq) VALUES (?, ?, ?)
		ON CONFLICT (host, run_id) DO UPDATE SET seq = max(seq, excluded.seq)`, host, runID, seq)
	return s.wrap("keep remote cursors", err)
}
