package journal

import (
	"context"
	"strings"
)

// ImportedHistoryIDs is the agent's own session ids of every conversation
// imported from agent's history, continued ones too (their digests are
// "history:AGENT:ID", "continued:history:AGENT:ID"; docs/ARCHITECTURE.md
// §History): what the first-start offer leaves out.
func (s *Store) ImportedHistoryIDs(ctx context.Context, agent string) (map[string]bool, error) {
	prefix := "history:" + agent + ":"
	rows, err := s.db.QueryContext(ctx, `SELECT import_digest FROM sessions WHERE substr(import_digest, 1, ?) = ? OR substr(import_digest, 1, ?) = ?`,
		len(prefix), prefix, len(continuedPrefix+prefix), continuedPrefix+prefix)
	if err != nil {
		return nil, s.wrap("list imported histories", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, s.wrap("list imported histories", err)
		}
		out[strings.TrimPrefix(strings.TrimPrefix(d, continuedPrefix), prefix)] = true
	}
	return out, s.wrap("list imported histories", rows.Err())
}
