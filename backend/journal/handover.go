package journal

import (
	"context"
)

// A forked session's handover: the conversation before the turn it was
// forked from, as text its agent is given ahead of the session's first
// message (docs/ARCHITECTURE.md §Checkpoints, Fork from here). Kept apart
// from run.Session so a session list never carries it.

// SetSessionHandover records the handover of a session.
func (s *Store) SetSessionHandover(ctx context.Context, sessionID, text string) error {
	return s.changeOne(ctx, "set session handover", "session", sessionID, `UPDATE sessions SET handover = ? WHERE id = ?`, text, sessionID)
}

// SessionHandover is a session's handover ("" for a session not forked).
func (s *Store) SessionHandover(ctx context.Context, sessionID string) (string, error) {
	return oneOf(ctx, s, "session", sessionID, scanText, `SELECT handover FROM sessions WHERE id = ?`)
}

// SetSessionFork records the native fork a forked session's first run
// makes (JSON the service writes; "" for none).
func (s *Store) SetSessionFork(ctx context.Context, sessionID, fork string) error {
	return s.changeOne(ctx, "set session fork", "session", sessionID, `UPDATE sessions SET fork = ? WHERE id = ?`, fork, sessionID)
}

// SessionFork is a session's native fork ("" for none).
func (s *Store) SessionFork(ctx context.Context, sessionID string) (string, error) {
	return oneOf(ctx, s, "session", sessionID, scanText, `SELECT fork FROM sessions WHERE id = ?`)
}

// scanText reads a row of one text column.
func scanText(sc rowScanner) (string, error) {
	var v string
	err := sc.Scan(&v)
	return v, err
}
