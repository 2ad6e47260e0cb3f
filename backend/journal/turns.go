package journal

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/redact"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Submit records a user submission in one synchronous transaction: the
// user message, the assistant message placeholder, the turn (submitted)
// and its run (queued). Nothing may be spawned before it returns, so a
// submitted message is never missing from the transcript. The same
// ClientRequestID with the same body returns the first Submission
// (Existing); with a different body, ErrConflict.
func (s *Store) Submit(ctx context.Context, req run.SubmitRequest) (run.Submission, error) {
	if strings.TrimSpace(req.Message) == "" && len(req.Attachments) == 0 {
		return run.Submission{}, fmt.Errorf("journal: submit to %s: empty message: %w", req.SessionID, ErrInvalid)
	}
	hash := requestHash(req)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return run.Submission{}, s.wrap("submit", err)
	}
	defer tx.Rollback()

	if req.ClientRequestID != "" {
		var turnID, runID, h string
		err := tx.QueryRowContext(ctx, `SELECT id, run_id, request_hash FROM turns WHERE client_request_id = ?`,
			req.ClientRequestID).Scan(&turnID, &runID, &h)
		switch {
		case err == nil:
			if h != hash {
				return run.Submission{}, fmt.Errorf("journal: submit: client_request_id %q was used for a different message: %w",
					req.ClientRequestID, ErrConflict)
			}
			tx.Rollback()
			return s.existingSubmission(ctx, turnID, runID)
		case !errors.Is(err, sql.ErrNoRows):
			return run.Submission{}, s.wrap("submit", err)
		}
	}

	var projectID, agent, model, imported string
	err = tx.QueryRowContext(ctx, `SELECT project_id, agent, model, imported_from FROM sessions WHERE id = ?`, req.SessionID).
		Scan(&projectID, &agent, &model, &imported)
	if errors.Is(err, sql.ErrNoRows) {
		return run.Submission{}, fmt.Errorf("journal: submit: session %s: %w", req.SessionID, ErrNotFound)
	}
	if err != nil {
		return run.Submission{}, s.wrap("submit", err)
	}
	if imported != "" {
		return run.Submission{}, fmt.Errorf("journal: submit to %s: %w", req.SessionID, ErrSessionImported)
	}
	if req.Agent != "" {
		agent = req.Agent
	}
	if req.Model != "" {
		model = req.Model
	}
	at := nowNanos()
	t := run.Turn{
		ID: newID(prefixTurn), SessionID: req.SessionID, RunID: newID(prefixRun),
		UserMessageID: newID(prefixMessage), AssistantMessageID: newID(prefixMessage),
		ClientRequestID: req.ClientRequestID, State: run.TurnSubmitted,
		CreatedAt: fromNanos(at), UpdatedAt: fromNanos(at),
	}
	attach := ""
	if len(req.Attachments) > 0 {
		b, _ := json.Marshal(req.Attachments)
		attach = string(b)
	}
	// The transcript and the search index keep the message as its
	// message.user event does, secrets masked; only the run's spec carries
	// the raw text to the agent, and only until the run ends
	// (docs/ARCHITECTURE.md §Security, secrets).
	stored := redact.String(req.Message)
	stmts := []struct {
		q    string
		args []any
	}{
		{`INSERT INTO messages (id, session_id, role, content, run_id, attachments, created_at) VALUES (?, ?, 'user', ?, ?, ?, ?)`,
			[]any{t.UserMessageID, t.SessionID, stored, t.RunID, attach, at}},
		// The placeholder sorts after the user message (created_at + 1).
		{`INSERT INTO messages (id, session_id, role, content, run_id, created_at) VALUES (?, ?, 'assistant', '', ?, ?)`,
			[]any{t.AssistantMessageID, t.SessionID, t.RunID, at + 1}},
		{`INSERT INTO turns (id, session_id, run_id, user_message_id, assistant_message_id, client_request_id,
			request_hash, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			[]any{t.ID, t.SessionID, t.RunID, t.UserMessageID, t.AssistantMessageID, t.ClientRequestID, hash,
				string(t.State), at, at}},
		{`INSERT INTO runs (id, project_id, session_id, turn_id, user_message_id, assistant_message_id, agent, model,
			status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)`,
			[]any{t.RunID, projectID, t.SessionID, t.ID, t.UserMessageID, t.AssistantMessageID, agent, model, at}},
		{`UPDATE sessions SET updated_at = ? WHERE id = ?`, []any{at, t.SessionID}},
	}
	for _, st := range stmts {
		if _, err := tx.ExecContext(ctx, st.q, st.args...); err != nil {
			return run.Submission{}, s.wrap("submit", err)
		}
	}
	if err := indexText(ctx, tx, "user", t.SessionID, t.RunID, t.UserMessageID, 0, stored, at); err != nil {
		return run.Submission{}, s.wrap("submit: index message", err)
	}
	if err := tx.Commit(); err != nil {
		return run.Submission{}, s.wrap("submit", err)
	}
	r, err := s.GetRun(ctx, t.RunID)
	if err != nil {
		return run.Submission{}, err
	}
	return run.Submission{Turn: t, Run: r}, nil
}

func requestHash(req run.SubmitRequest) string {
	h := sha256.New()
	for _, f := range append([]string{req.SessionID, req.Message, req.Agent, req.Model}, req.Attachments...) {
		fmt.Fprintf(h, "%d:%s;", len(f), f)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (s *Store) existingSubmission(ctx context.Context, turnID, runID string) (run.Submission, error) {
	t, err := s.GetTurn(ctx, turnID)
	if err != nil {
		return run.Submission{}, err
	}
	r, err := s.GetRun(ctx, runID)
	if err != nil {
		return run.Submission{}, err
	}
	return run.Submission{Turn: t, Run: r, Existing: true}, nil
}

// GetTurn returns one turn or ErrNotFound.
func (s *Store) GetTurn(ctx context.Context, id string) (run.Turn, error) {
	t := run.Turn{ID: id}
	var state, outcome string
	var c, u int64
	err := s.db.QueryRowContext(ctx, `SELECT session_id, run_id, user_message_id, assistant_message_id,
		client_request_id, state, outcome, created_at, updated_at FROM turns WHERE id = ?`, id).
		Scan(&t.SessionID, &t.RunID, &t.UserMessageID, &t.AssistantMessageID, &t.ClientRequestID, &state, &outcome, &c, &u)
	if errors.Is(err, sql.ErrNoRows) {
		return run.Turn{}, fmt.Errorf("journal: turn %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return run.Turn{}, s.wrap("get turn "+id, err)
	}
	t.State, t.Outcome = run.TurnState(state), run.Status(outcome)
	t.CreatedAt, t.UpdatedAt = fromNanos(c), fromNanos(u)
	return t, nil
}

// SetTurnState moves a turn forward (submitted → worker_started →
// assistant_started → completed | interrupted). A repeated or backward
// transition changes nothing and is not an error: the journal also
// derives these states from the run's events. A finished state needs the
// run's terminal status as outcome.
func (s *Store) SetTurnState(ctx context.Context, turnID string, st run.TurnState, outcome run.Status) error {
	if turnRank(st) == 0 {
		return fmt.Errorf("journal: turn %s: unknown state %q: %w", turnID, st, ErrInvalid)
	}
	if st.Terminal() != outcome.Terminal() || (outcome != "" && !outcome.Valid()) {
		return fmt.Errorf("journal: turn %s: state %s with outcome %q: %w", turnID, st, outcome, ErrInvalid)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("set turn state", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM turns WHERE id = ?`, turnID).Scan(&n); err != nil {
		return s.wrap("set turn state", err)
	}
	if n == 0 {
		return fmt.Errorf("journal: turn %s: %w", turnID, ErrNotFound)
	}
	if err := advanceTurn(ctx, tx, turnID, st, outcome, "", nowNanos()); err != nil {
		return s.wrap("set turn state", err)
	}
	return s.wrap("set turn state", tx.Commit())
}
