package journal

import (
	"context"
	"strings"
	"unicode"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Snippet highlight markers around matched terms. They are plain
// characters, not HTML: the UI decides how to show them.
const (
	HighlightStart = "«"
	HighlightEnd   = "»"
)

// Search finds text anyone said or any tool printed: user messages,
// assistant answers, reasoning blocks and tool output (indexed when each
// block completes). The query is plain words, all of which must match (the
// last one as a prefix); FTS5 operators typed by a person are treated as
// text, so no input can make the query fail. Best matches first.
func (s *Store) Search(ctx context.Context, q string, limit int) ([]run.SearchHit, error) {
	match := ftsQuery(q)
	if match == "" {
		return nil, nil
	}
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	rows, err := s.db.QueryContext(ctx, `SELECT d.kind, d.session_id, d.run_id, d.message_id, d.seq, d.created_at,
		snippet(search_fts, 0, ?, ?, '…', 16)
		FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid
		WHERE search_fts MATCH ? ORDER BY rank LIMIT ?`, HighlightStart, HighlightEnd, match, limit)
	if err != nil {
		return nil, s.wrap("search", err)
	}
	defer rows.Close()
	var out []run.SearchHit
	for rows.Next() {
		var h run.SearchHit
		var at int64
		if err := rows.Scan(&h.Kind, &h.SessionID, &h.RunID, &h.MessageID, &h.Seq, &at, &h.Snippet); err != nil {
			return nil, s.wrap("search", err)
		}
		h.CreatedAt = fromNanos(at)
		out = append(out, h)
	}
	return out, s.wrap("search", rows.Err())
}

// ftsQuery turns free text into an FTS5 query of quoted terms: every
// character a person types is literal.
func ftsQuery(q string) string {
	terms := strings.FieldsFunc(q, func(r rune) bool { return unicode.IsSpace(r) })
	var b strings.Builder
	n := 0
	for _, t := range terms {
		// Terms made only of punctuation produce no tokens; FTS5 rejects
		// an empty phrase, so drop them.
		if strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) < 0 {
			continue
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(`"` + strings.ReplaceAll(t, `"`, `""`) + `"`)
		n++
	}
	if n == 0 {
		return ""
	}
	return b.String() + "*"
}
