package journal

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/redact"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// InterruptRun ends a run whose worker is gone (the supervisor fenced its
// shim, docs/ARCHITECTURE.md §Fencing): if the run has no done yet it appends a synthetic
// `error` (reason, with detail such as the tail of the shim's log,
// redacted) and `done{status: interrupted, error: reason}` in one
// transaction, and closes the turn as interrupted. The assistant message
// keeps only what the agent really streamed; nothing is invented. The
// session's updated_at does not move (maintenance). Calling it again, or on
// an ended run, writes nothing and returns written=false.
//
// It must not be used while a Writer of this process owns the run
// (ErrWriterBusy): that writer should end the run itself.
func (s *Store) InterruptRun(ctx context.Context, runID, reason, detail string) (written bool, err error) {
	return s.InterruptRunAfter(ctx, runID, reason, detail, 0)
}

// InterruptRunAfter is InterruptRun for a run whose events up to seq
// announced were already shown to clients (the supervisor published them
// live). If the journal holds fewer — a damaged write-ahead log dropped the
// last commit — the synthetic events go after announced, never on a seq a
// client may hold (a client resuming after it would miss the interruption),
// and a lost `compacted` marker stands for the missing range; the audit
// lists the run.
func (s *Store) InterruptRunAfter(ctx context.Context, runID, reason, detail string, announced int64) (written bool, err error) {
	if s.closed.Load() {
		return false, ErrClosed
	}
	s.wmu.Lock()
	_, busy := s.writers[runID]
	s.wmu.Unlock()
	if busy {
		return false, fmt.Errorf("journal: interrupt %s: %w", runID, ErrWriterBusy)
	}
	if reason == "" {
		reason = "the run's worker stopped unexpectedly"
	}
	reason = redact.String(reason)
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: seq is read and used under the write lock
	if err != nil {
		return false, s.wrap("interrupt "+runID, err)
	}
	defer tx.Rollback()
	rc, last, terminal, err := s.loadRunCtx(ctx, tx, runID)
	if err != nil || terminal {
		return false, err
	}
	now := run.UnixSeconds(time.Now())
	errPayload, _ := json.Marshal(run.ErrorInfo{Message: reason, Code: run.ErrorInterrupted, Detail: redact.String(detail)})
	donePayload, _ := json.Marshal(run.Done{Status: run.StatusInterrupted, Error: reason})
	var evs []run.Event
	if announced > last {
		lost := announced - last
		lostPayload, _ := json.Marshal(run.Compacted{FromSeq: last + 1, ToSeq: announced, Lost: true})
		evs = append(evs, run.Event{Seq: last + 1, Type: run.EventCompacted, Payload: lostPayload})
		errPayload, _ = json.Marshal(run.ErrorInfo{Message: reason, Code: run.ErrorInterrupted, Detail: redact.String(fmt.Sprintf(
			"%d event(s) already shown (seq %d–%d) were lost from the journal (a damaged write-ahead log).\n%s", lost, last+1, announced, detail))})
		last = announced
	}
	evs = append(evs,
		run.Event{Seq: last + 1, Type: run.EventError, Payload: errPayload},
		run.Event{Seq: last + 2, Type: run.EventDone, Payload: donePayload, Terminal: true},
	)
	d := deriver{s: s, tx: tx, rc: rc, maintenance: true}
	for i := range evs {
		ev := &evs[i]
		ev.RunID, ev.SessionID, ev.CreatedAt = runID, rc.sessionID, now
		ev.EventID = run.EventID(runID, ev.Seq)
		if _, err := tx.ExecContext(ctx, `INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, ?, ?, ?, ?)`,
			runID, ev.Seq, string(ev.Type), ev.CreatedAt, []byte(ev.Payload)); err != nil {
			return false, s.wrap("interrupt "+runID, classifyConstraint(err))
		}
		if err := d.event(ctx, *ev); err != nil {
			return false, s.wrap("interrupt "+runID, err)
		}
	}
	if err := d.finish(ctx); err != nil {
		return false, s.wrap("interrupt "+runID, err)
	}
	if err := tx.Commit(); err != nil {
		return false, s.wrap("interrupt "+runID, err)
	}
	if s.opts.OnCommit != nil {
		s.opts.OnCommit(evs)
	}
	return true, nil
}

// Audit lists pending, interrupted and malformed runs. It scans every
// event once (for gaps and undecodable payloads): run it at start-up or on
// demand, not per request.
func (s *Store) Audit(ctx context.Context) (run.Audit, error) {
	var a run.Audit
	q := func(where, order string, limit int, problem string) ([]run.AuditItem, error) {
		rows, err := s.db.QueryContext(ctx, `SELECT r.id, r.session_id, r.turn_id, r.status, COALESCE(t.state, ''), r.last_seq, r.error
			FROM runs r LEFT JOIN turns t ON t.id = r.turn_id WHERE `+where+` ORDER BY `+order+` LIMIT ?`, limit)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []run.AuditItem
		for rows.Next() {
			var it run.AuditItem
			var st, ts string
			if err := rows.Scan(&it.RunID, &it.SessionID, &it.TurnID, &st, &ts, &it.LastSeq, &it.Error); err != nil {
				return nil, err
			}
			it.Status, it.TurnState, it.Problem = run.Status(st), run.TurnState(ts), problem
			out = append(out, it)
		}
		return out, rows.Err()
	}
	var err error
	if a.Pending, err = q("r.terminal = 0", "r.created_at", 1000, ""); err != nil {
		return a, s.wrap("audit", err)
	}
	if a.Interrupted, err = q("r.status = 'interrupted'", "r.ended_at DESC", 100, ""); err != nil {
		return a, s.wrap("audit", err)
	}
	checks := []struct{ where, problem string }{
		{`t.id IS NULL`, "run has no turn"},
		{`r.terminal = 1 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.run_id = r.id AND e.type = 'done')`, "run marked ended but has no done event"},
		{`r.terminal = 0 AND EXISTS (SELECT 1 FROM events e WHERE e.run_id = r.id AND e.type = 'done')`, "run has a done event but is not marked ended"},
		{`r.terminal = 1 AND t.state NOT IN ('completed', 'interrupted')`, "run ended but its turn is still open"},
		{`r.terminal = 0 AND t.state IN ('completed', 'interrupted')`, "turn closed but its run has not ended"},
		{`r.last_seq <> COALESCE((SELECT MAX(seq) FROM events e WHERE e.run_id = r.id), 0)`, "last_seq does not match the events"},
		{`EXISTS (SELECT 1 FROM events e WHERE e.run_id = r.id AND e.type = 'compacted' AND json_extract(e.payload, '$.lost'))`,
			"events already shown were lost from the journal (a damaged write-ahead log); the run was closed after them"},
	}
	for _, c := range checks {
		items, err := q(c.where, "r.created_at", 1000, c.problem)
		if err != nil {
			return a, s.wrap("audit", err)
		}
		a.Malformed = append(a.Malformed, items...)
	}
	// Gaps (compacted markers stand for their whole seq range) and payloads
	// that are not JSON.
	rows, err := s.db.QueryContext(ctx, `SELECT run_id, MAX(seq),
		COUNT(*) + SUM(CASE WHEN type = 'compacted' THEN json_extract(payload, '$.to_seq') - json_extract(payload, '$.from_seq') ELSE 0 END),
		SUM(json_valid(payload) = 0)
		FROM events GROUP BY run_id`)
	if err != nil {
		return a, s.wrap("audit", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var maxSeq, covered, invalid int64
		if err := rows.Scan(&id, &maxSeq, &covered, &invalid); err != nil {
			return a, s.wrap("audit", err)
		}
		if covered != maxSeq {
			a.Malformed = append(a.Malformed, run.AuditItem{RunID: id, LastSeq: maxSeq, Problem: fmt.Sprintf("seq has gaps: %d of %d present", covered, maxSeq)})
		}
		if invalid > 0 {
			a.Malformed = append(a.Malformed, run.AuditItem{RunID: id, LastSeq: maxSeq, Problem: fmt.Sprintf("%d event payload(s) are not valid JSON", invalid)})
		}
	}
	return a, s.wrap("audit", rows.Err())
}
