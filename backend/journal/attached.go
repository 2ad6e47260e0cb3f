package journal

import (
	"context"
	"encoding/json"
	"fmt"
)

// AttachedPaths is every file a stored message attaches, so the uploads
// sweep never removes one in use (docs/ARCHITECTURE.md §Attachments). A
// value it cannot read fails the whole call: better no sweep than a guess.
func (s *Store) AttachedPaths(ctx context.Context) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, attachments FROM messages WHERE attachments <> ''`)
	if err != nil {
		return nil, s.wrap("read attached files", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id, attached string
		if err := rows.Scan(&id, &attached); err != nil {
			return nil, s.wrap("read attached files", err)
		}
		var paths []string
		if err := json.Unmarshal([]byte(attached), &paths); err != nil {
			return nil, fmt.Errorf("journal: the attachments of message %s cannot be read: %w", id, err)
		}
		for _, p := range paths {
			out[p] = true
		}
	}
	return out, s.wrap("read attached files", rows.Err())
}
