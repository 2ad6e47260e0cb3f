package journal

import (
	"context"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// reviewSQL is migration 15: a workspace review's viewed marks and line
// comments (backend/review; docs/ARCHITECTURE.md §Review). A mark holds
// for the blob it was made at: a file changed since is unviewed again.
const reviewSQL = `
CREATE TABLE review_marks (
	workspace_id TEXT NOT NULL,
	path         TEXT NOT NULL,
	blob         TEXT NOT NULL,
	marked_at    INTEGER NOT NULL,
	PRIMARY KEY (workspace_id, path)
);
CREATE TABLE review_comments (
	id           TEXT PRIMARY KEY,
	workspace_id TEXT NOT NULL,
	path         TEXT NOT NULL,
	side         TEXT NOT NULL,
	line         INTEGER NOT NULL,
	quote        TEXT NOT NULL DEFAULT '',
	text         TEXT NOT NULL,
	state        TEXT NOT NULL,
	run_id       TEXT NOT NULL DEFAULT '',
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL
);
CREATE INDEX review_comments_by_workspace ON review_comments(workspace_id, created_at);
`

// ReviewMarks returns a workspace's viewed marks.
func (s *Store) ReviewMarks(ctx context.Context, workspaceID string) ([]run.ReviewMark, error) {
	return listOf(ctx, s, "list review marks", func(sc rowScanner) (run.ReviewMark, error) {
		var m run.ReviewMark
		err := sc.Scan(&m.Path, &m.Blob)
		return m, err
	}, `SELECT path, blob FROM review_marks WHERE workspace_id = ? ORDER BY path`, workspaceID)
}

// SetReviewMark marks a file viewed at blob, or (viewed false) not.
func (s *Store) SetReviewMark(ctx context.Context, workspaceID string, m run.ReviewMark, viewed bool) error {
	var err error
	if viewed {
		_, err = s.db.ExecContext(ctx, `INSERT OR REPLACE INTO review_marks (workspace_id, path, blob, marked_at)
			VALUES (?, ?, ?, ?)`, workspaceID, m.Path, m.Blob, nowNanos())
	} else {
		_, err = s.db.ExecContext(ctx, `DELETE FROM review_marks WHERE workspace_id = ? AND path = ?`, workspaceID, m.Path)
	}
	return s.wrap("mark "+m.Path+" viewed", err)
}

const reviewCommentCols = `id, workspace_id, path, side, line, quote, text, state, run_id, created_at, updated_at`

func scanReviewComment(sc rowScanner) (run.ReviewComment, error) {
	var c run.ReviewComment
	var at, up int64
	err := sc.Scan(&c.ID, &c.WorkspaceID, &c.Path, &c.Side, &c.Line, &c.Quote, &c.Text, &c.State, &c.RunID, &at, &up)
	c.CreatedAt, c.UpdatedAt = fromNanos(at), fromNanos(up)
	return c, err
}

// PutReviewComment inserts or replaces one comment.
func (s *Store) PutReviewComment(ctx context.Context, c run.ReviewComment) error {
	if c.ID == "" || c.WorkspaceID == "" || strings.TrimSpace(c.Path) == "" {
		return fmt.Errorf("journal: review comment: id, workspace and path are required: %w", ErrInvalid)
	}
	at := nowNanos()
	created := at
	if !c.CreatedAt.IsZero() {
		created = c.CreatedAt.UnixNano()
	}
	_, err := s.db.ExecContext(ctx, `INSERT OR REPLACE INTO review_comments (`+reviewCommentCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.WorkspaceID, c.Path, c.Side, c.Line, c.Quote, c.Text, c.State, c.RunID, created, at)
	return s.wrap("store review comment "+c.ID, err)
}

// GetReviewComment returns one comment or ErrNotFound.
func (s *Store) GetReviewComment(ctx context.Context, id string) (run.ReviewComment, error) {
	return oneOf(ctx, s, "review comment", id, scanReviewComment, `SELECT `+reviewCommentCols+` FROM review_comments WHERE id = ?`)
}

// ReviewComments lists a workspace's comments, oldest first.
func (s *Store) ReviewComments(ctx context.Context, workspaceID string) ([]run.ReviewComment, error) {
	out, err := listOf(ctx, s, "list review comments", scanReviewComment, `SELECT `+reviewCommentCols+` FROM review_comments
		WHERE workspace_id = ? ORDER BY created_at, id`, workspaceID)
	if out == nil && err == nil {
		out = []run.ReviewComment{} // an empty list, never null, on the wire
	}
	return out, err
}

// DeleteReviewComment removes one comment; ErrNotFound when there is none.
func (s *Store) DeleteReviewComment(ctx context.Context, id string) error {
	return s.changeOne(ctx, "delete review comment "+id, "review comment", id, `DELETE FROM review_comments WHERE id = ?`, id)
}

// MarkReviewCommentsSent marks drafts sent in runID.
func (s *Store) MarkReviewCommentsSent(ctx context.Context, ids []string, runID string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("mark review comments sent", err)
	}
	defer tx.Rollback()
	at := nowNanos()
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `UPDATE review_comments SET state = ?, run_id = ?, updated_at = ? WHERE id = ?`,
			run.CommentSent, runID, at, id); err != nil {
			return s.wrap("mark review comments sent", err)
		}
	}
	return s.wrap("mark review comments sent", tx.Commit())
}
