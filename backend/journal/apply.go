package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// deriver keeps the run, turn, message and search rows in step with the
// events committed in the same transaction, so readers never see an event
// without its consequences (or the reverse).
type deriver struct {
	s  *Store
	tx *sql.Tx
	rc runCtx
	// maintenance: written by recovery, which never moves updated_at.
	maintenance bool

	lastSeq int64
	// state is the run's status and pending prompts as run.Next moves
	// them (loaded from the run row at the group's first state event);
	// finish writes it once per group.
	state        run.State
	stateLoaded  bool
	stateChanged bool
	turn         run.TurnState
	// turnDone is the turn state this process already wrote for the run,
	// so a batch of deltas does not re-issue the same no-op UPDATE.
	turnDone run.TurnState
}

func (d *deriver) exec(ctx context.Context, q string, args ...any) error {
	_, err := d.tx.ExecContext(ctx, q, args...)
	return err
}

func (d *deriver) event(ctx context.Context, ev run.Event) error {
	d.lastSeq = ev.Seq
	at := int64(ev.CreatedAt * 1e9)
	id := d.rc.runID
	if run.MovesState(ev.Type) {
		if err := d.step(ctx, ev); err != nil {
			return err
		}
	}
	switch ev.Type {
	case run.EventRunStarted:
		d.bump(run.TurnWorkerStarted)
		return d.exec(ctx, `UPDATE runs SET started_at = COALESCE(started_at, ?) WHERE id = ?`, at, id)
	case run.EventStatus:
		if d.state.Status == run.StatusRunning {
			return d.exec(ctx, `UPDATE runs SET started_at = COALESCE(started_at, ?) WHERE id = ?`, at, id)
		}
	case run.EventTokenDelta, run.EventReasoningDelta, run.EventToolStarted:
		d.bump(run.TurnAssistantStarted)
	case run.EventTitleUpdated:
		// The agent may name an untitled conversation; a person's title wins.
		var p run.TitleUpdated
		if json.Unmarshal(ev.Payload, &p) == nil && p.Title != "" {
			return d.exec(ctx, `UPDATE sessions SET title = ? WHERE id = ? AND title = ''`, p.Title, d.rc.sessionID)
		}
	case run.EventModelUpdated:
		var p run.ModelUpdated
		if json.Unmarshal(ev.Payload, &p) != nil {
			return nil
		}
		if p.Defaults {
			if err := d.agentModels(ctx, p, at); err != nil {
				return err
			}
		}
		if p.Model != "" {
			if err := d.exec(ctx, `UPDATE runs SET model = ? WHERE id = ?`, p.Model, id); err != nil || p.By != "user" {
				return err
			}
			// A person's choice outlives the run: the session's next run
			// (a fresh agent too) starts on it.
			return d.exec(ctx, `UPDATE sessions SET model = ? WHERE id = ?`, p.Model, d.rc.sessionID)
		}
	case run.EventConfigUpdated:
		return d.config(ctx, ev, at)
	case run.EventReasoningDone:
		d.bump(run.TurnAssistantStarted)
		var p run.TextDone
		_ = json.Unmarshal(ev.Payload, &p)
		text := p.Text
		if text == "" {
			var err error
			if text, err = d.reasoningSince(ctx, ev.Seq); err != nil {
				return err
			}
		}
		return d.index(ctx, "reasoning", "", ev.Seq, text, at)
	case run.EventToolDone:
		var p run.ToolDone
		_ = json.Unmarshal(ev.Payload, &p)
		text, err := d.toolText(ctx, ev.Seq, p)
		if err != nil {
			return err
		}
		return d.index(ctx, "tool", "", ev.Seq, text, at)
	case run.EventFileChanged:
		// A change is found by its file's name and by the lines it added
		// or removed (docs/ARCHITECTURE.md §Events).
		var p run.FileChanged
		if json.Unmarshal(ev.Payload, &p) != nil || p.Path == "" {
			return nil
		}
		text := p.Path
		if p.Diff != "" {
			text += "\n" + truncateIndex(p.Diff)
		}
		return d.index(ctx, "file", "", ev.Seq, text, at)
	case run.EventUsageUpdated:
		return d.quotaSeen(ctx, ev)
	case run.EventDone:
		return d.done(ctx, ev, at)
	}
	return nil
}

// step moves the run's state with the one state machine, run.Next
// (docs/ARCHITECTURE.md §Run state machine).
func (d *deriver) step(ctx context.Context, ev run.Event) error {
	if !d.stateLoaded {
		var st string
		if err := d.tx.QueryRowContext(ctx, `SELECT status, pending_approval_id, pending_clarify_id, resumes_at, park_attempts FROM runs WHERE id = ?`,
			d.rc.runID).Scan(&st, &d.state.PendingApprovalID, &d.state.PendingClarifyID, &d.state.ResumesAt, &d.state.ParkAttempts); err != nil {
			return err
		}
		d.state.Status = run.Status(st)
		d.stateLoaded = true
	}
	next := run.Next(d.state, ev.Type, ev.Payload)
	if next != d.state {
		d.state, d.stateChanged = next, true
	}
	return nil
}

// truncateIndex bounds the text of one change that goes into search.
func truncateIndex(s string) string {
	const max = 64 << 10
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "")
}

func (d *deriver) bump(st run.TurnState) {
	if turnRank(st) > turnRank(d.turn) {
		d.turn = st
	}
}

// finish records the group's last seq and the turn's progress.
func (d *deriver) finish(ctx context.Context) error {
	if d.stateChanged && !d.state.Status.Terminal() {
		if err := d.exec(ctx, `UPDATE runs SET status = ?, pending_approval_id = ?, pending_clarify_id = ?, resumes_at = ?, park_attempts = ?
			WHERE id = ? AND terminal = 0`,
			string(d.state.Status), d.state.PendingApprovalID, d.state.PendingClarifyID, d.state.ResumesAt, d.state.ParkAttempts,
			d.rc.runID); err != nil {
			return err
		}
		d.stateChanged = false
	}
	if d.lastSeq > 0 {
		if err := d.exec(ctx, `UPDATE runs SET last_seq = ? WHERE id = ? AND last_seq < ?`, d.lastSeq, d.rc.runID, d.lastSeq); err != nil {
			return err
		}
	}
	if d.turn != "" && turnRank(d.turn) > turnRank(d.turnDone) {
		if err := advanceTurn(ctx, d.tx, d.rc.turnID, d.turn, "", "", nowNanos()); err != nil {
			return err
		}
		d.turnDone = d.turn
	}
	return nil
}

// done applies a run's terminal event: run row, turn, assistant message
// (assembled from what the agent really streamed, never invented) and its
// search entry.
func (d *deriver) done(ctx context.Context, ev run.Event, at int64) error {
	var p run.Done
	_ = json.Unmarshal(ev.Payload, &p)
	var exit any
	if p.ExitCode != nil {
		exit = *p.ExitCode
	}
	if err := d.exec(ctx, `UPDATE runs SET status = ?, terminal = 1, ended_at = ?, error = ?, exit_code = ?,
		pending_approval_id = '', pending_clarify_id = '', resumes_at = '', last_seq = MAX(last_seq, ?) WHERE id = ?`,
		string(d.state.Status), at, p.Error, exit, ev.Seq, d.rc.runID); err != nil {
		return err
	}
	text, _, err := assembleText(ctx, d.tx, d.rc.runID)
	if err != nil {
		return err
	}
	if err := d.exec(ctx, `UPDATE messages SET content = ? WHERE id = ?`, text, d.rc.assistantMessageID); err != nil {
		return err
	}
	if err := d.index(ctx, "assistant", d.rc.assistantMessageID, ev.Seq, text, at); err != nil {
		return err
	}
	state := run.TurnCompleted
	if d.state.Status == run.StatusInterrupted {
		state = run.TurnInterrupted
	}
	if err := advanceTurn(ctx, d.tx, d.rc.turnID, state, d.state.Status, p.Error, nowNanos()); err != nil {
		return err
	}
	if err := d.doneUsage(ctx, ev, p); err != nil {
		return err
	}
	d.turn = ""
	if !d.maintenance {
		return d.exec(ctx, `UPDATE sessions SET updated_at = ? WHERE id = ?`, nowNanos(), d.rc.sessionID)
	}
	return nil
}

func (d *deriver) index(ctx context.Context, kind, messageID string, seq int64, text string, at int64) error {
	return indexText(ctx, d.tx, kind, d.rc.sessionID, d.rc.runID, messageID, seq, text, at)
}

func indexText(ctx context.Context, tx *sql.Tx, kind, sessionID, runID, messageID string, seq int64, text string, at int64) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO search_docs (kind, session_id, run_id, message_id, seq, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, kind, sessionID, runID, messageID, seq, at)
	if err != nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO search_fts (rowid, body) VALUES (?, ?)`, id, text)
	return err
}

// reasoningSince assembles the reasoning deltas after the previous
// reasoning.done, for a reasoning.done that carries no text.
func (d *deriver) reasoningSince(ctx context.Context, seq int64) (string, error) {
	rows, err := d.tx.QueryContext(ctx, `SELECT type, payload FROM events WHERE run_id = ? AND seq < ?
		AND type IN ('reasoning.delta', 'reasoning.done', 'compacted') ORDER BY seq DESC`, d.rc.runID, seq)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var parts []string
	for rows.Next() {
		var t string
		var p []byte
		if err := rows.Scan(&t, &p); err != nil {
			return "", err
		}
		if t == string(run.EventReasoningDone) {
			break
		}
		var x struct {
			Text      string `json:"text"`
			Reasoning string `json:"reasoning"`
		}
		_ = json.Unmarshal(p, &x)
		if t == string(run.EventCompacted) {
			x.Text = x.Reasoning
		}
		parts = append(parts, x.Text)
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	return b.String(), rows.Err()
}

// toolText is what search finds of a finished tool call: its title and
// (sanitized) input, so a command that ran can be found, then its output
// (the done's, else the streamed chunks) and error. It walks back from the
// done to the call's tool.started, so its cost is the call's own span, not
// the whole run (a tool-heavy run would otherwise index quadratically).
func (d *deriver) toolText(ctx context.Context, doneSeq int64, done run.ToolDone) (string, error) {
	var head string
	var chunks []string // streamed output, newest first
	if done.ToolCallID != "" {
		rows, err := d.tx.QueryContext(ctx, `SELECT type, payload FROM events WHERE run_id = ? AND seq < ?
			AND type IN ('tool.started', 'tool.updated') ORDER BY seq DESC`, d.rc.runID, doneSeq)
		if err != nil {
			return "", err
		}
		defer rows.Close()
		for rows.Next() {
			var t string
			var p []byte
			if err := rows.Scan(&t, &p); err != nil {
				return "", err
			}
			if t == string(run.EventToolStarted) {
				var st struct {
					ToolCallID string          `json:"tool_call_id"`
					Name       string          `json:"name"`
					Title      string          `json:"title"`
					Input      json.RawMessage `json:"input"`
				}
				if json.Unmarshal(p, &st) == nil && st.ToolCallID == done.ToolCallID {
					head = strings.TrimSpace(st.Name + " " + st.Title + " " + string(st.Input))
					break // nothing of this call comes before its start
				}
				continue
			}
			var u run.ToolUpdated
			if done.Output == "" && json.Unmarshal(p, &u) == nil && u.ToolCallID == done.ToolCallID {
				chunks = append(chunks, u.Output)
			}
		}
		if err := rows.Err(); err != nil {
			return "", err
		}
	}
	out := done.Output
	if out == "" {
		var b strings.Builder
		for i := len(chunks) - 1; i >= 0; i-- {
			b.WriteString(chunks[i])
		}
		out = b.String()
	}
	return strings.TrimSpace(head + "\n" + out + "\n" + done.Error), nil
}

type rowsQueryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// assembleText concatenates a run's assistant text (token.delta, and the
// text of compacted markers) and its reasoning, in seq order.
func assembleText(ctx context.Context, q rowsQueryer, runID string) (text, reasoning string, err error) {
	rows, err := q.QueryContext(ctx, `SELECT type, payload FROM events WHERE run_id = ?
		AND type IN ('token.delta', 'reasoning.delta', 'compacted') ORDER BY seq`, runID)
	if err != nil {
		return "", "", err
	}
	defer rows.Close()
	var tb, rb strings.Builder
	for rows.Next() {
		var t string
		var p []byte
		if err := rows.Scan(&t, &p); err != nil {
			return "", "", err
		}
		switch run.EventType(t) {
		case run.EventTokenDelta, run.EventReasoningDelta:
			var x run.TextDelta
			_ = json.Unmarshal(p, &x)
			if t == string(run.EventTokenDelta) {
				tb.WriteString(x.Text)
			} else {
				rb.WriteString(x.Text)
			}
		case run.EventCompacted:
			var c run.Compacted
			_ = json.Unmarshal(p, &c)
			tb.WriteString(c.Text)
			rb.WriteString(c.Reasoning)
		}
	}
	return tb.String(), rb.String(), rows.Err()
}

func turnRank(st run.TurnState) int {
	switch st {
	case run.TurnSubmitted:
		return 1
	case run.TurnWorkerStarted:
		return 2
	case run.TurnAssistantStarted:
		return 3
	case run.TurnCompleted, run.TurnInterrupted:
		return 4
	}
	return 0
}

// advanceTurn moves a turn forward only; a backward or repeated
// transition changes nothing.
func advanceTurn(ctx context.Context, tx *sql.Tx, turnID string, st run.TurnState, outcome run.Status, note string, at int64) error {
	var lower []any
	for _, s := range []run.TurnState{run.TurnSubmitted, run.TurnWorkerStarted, run.TurnAssistantStarted} {
		if turnRank(s) < turnRank(st) {
			lower = append(lower, string(s))
		}
	}
	if len(lower) == 0 {
		return nil
	}
	q := `UPDATE turns SET state = ?, outcome = CASE WHEN ? <> '' THEN ? ELSE outcome END,
		note = CASE WHEN ? <> '' THEN ? ELSE note END, updated_at = ?
		WHERE id = ? AND state IN (?` + strings.Repeat(", ?", len(lower)-1) + `)`
	args := append([]any{string(st), string(outcome), string(outcome), note, note, at, turnID}, lower...)
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}

// config keeps what a config.updated says beyond the run
// (docs/ARCHITECTURE.md §Session config options): choices on the session
// for its next runs, and an agent's settings for a new session to show
// before a session's first run.
func (d *deriver) config(ctx context.Context, ev run.Event, at int64) error {
	var p run.ConfigUpdated
	if json.Unmarshal(ev.Payload, &p) != nil {
		return nil
	}
	if len(p.Chosen) > 0 {
		patch, err := configPatch(p.Chosen)
		if err != nil {
			return err
		}
		if err := d.exec(ctx, `UPDATE sessions SET `+configPatchSQL+` WHERE id = ?`, patch, d.rc.sessionID); err != nil {
			return err
		}
	}
	if !p.Defaults || len(p.Options) == 0 {
		return nil
	}
	opts, err := json.Marshal(p.Options)
	if err != nil {
		return err
	}
	return d.exec(ctx, `INSERT INTO agent_config (agent, options, updated_at)
		SELECT agent, ?, ? FROM runs WHERE id = ? AND agent <> ''
		ON CONFLICT (agent) DO UPDATE SET options = excluded.options, updated_at = excluded.updated_at`, string(opts), at, d.rc.runID)
}

// agentModels remembers a new session's model and models for the agent
// (model.updated with defaults), for the model picker before a session's
// first run.
func (d *deriver) agentModels(ctx context.Context, p run.ModelUpdated, at int64) error {
	if len(p.Available) == 0 {
		return nil
	}
	models, err := json.Marshal(p.Available)
	if err != nil {
		return err
	}
	return d.exec(ctx, `INSERT INTO agent_config (agent, model, models, updated_at)
		SELECT agent, ?, ?, ? FROM runs WHERE id = ? AND agent <> ''
		ON CONFLICT (agent) DO UPDATE SET model = excluded.model, models = excluded.models, updated_at = excluded.updated_at`,
		p.Model, string(models), at, d.rc.runID)
}
