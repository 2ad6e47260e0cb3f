package journal

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/schedule"
)

// Schedules and their firings (schema version 4; docs/ARCHITECTURE.md §Schedules). The
// scheduler moves a schedule's cursor in the same transaction that records
// what it did at that due time, so a crash never both forgets and repeats.

const prefixSchedule = "sch_"

const scheduleCols = `id, name, prompt, agent, model, project_id, phrase, cron, once_at, timezone, target,
	session_id, missed, enabled, cursor, created_at, updated_at`

func scanSchedule(sc interface{ Scan(...any) error }) (schedule.Schedule, error) {
	var s schedule.Schedule
	var once sql.NullInt64
	var target, missed string
	var cursor, c, u int64
	err := sc.Scan(&s.ID, &s.Name, &s.Prompt, &s.Agent, &s.Model, &s.ProjectID, &s.Phrase, &s.Cron, &once,
		&s.Timezone, &target, &s.SessionID, &missed, &s.Enabled, &cursor, &c, &u)
	if once.Valid {
		t := fromNanos(once.Int64)
		s.At = &t
	}
	s.Target, s.Missed = schedule.Target(target), schedule.Missed(missed)
	s.Cursor, s.CreatedAt, s.UpdatedAt = fromNanos(cursor), fromNanos(c), fromNanos(u)
	return s, err
}

func onceArg(at *time.Time) any {
	if at == nil {
		return nil
	}
	return at.UnixNano()
}

// CreateSchedule stores a new schedule (validated by the caller); ID and
// times are set here. The project must exist.
func (s *Store) CreateSchedule(ctx context.Context, sc schedule.Schedule) (schedule.Schedule, error) {
	sc.ID = newID(prefixSchedule)
	at := nowNanos()
	if sc.Cursor.IsZero() {
		sc.Cursor = fromNanos(at)
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO schedules (`+scheduleCols+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM projects WHERE id = ?)`,
		sc.ID, sc.Name, sc.Prompt, sc.Agent, sc.Model, sc.ProjectID, sc.Phrase, sc.Cron, onceArg(sc.At), sc.Timezone,
		string(sc.Target), sc.SessionID, string(sc.Missed), sc.Enabled, sc.Cursor.UnixNano(), at, at, sc.ProjectID)
	if err != nil {
		return schedule.Schedule{}, s.wrap("create schedule", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return schedule.Schedule{}, fmt.Errorf("journal: create schedule: project %s: %w", sc.ProjectID, ErrNotFound)
	}
	return s.GetSchedule(ctx, sc.ID)
}

// GetSchedule returns one schedule or ErrNotFound.
func (s *Store) GetSchedule(ctx context.Context, id string) (schedule.Schedule, error) {
	return oneOf(ctx, s, "schedule", id, scanSchedule, `SELECT `+scheduleCols+` FROM schedules WHERE id = ?`)
}

// ListSchedules returns every schedule, oldest first.
func (s *Store) ListSchedules(ctx context.Context) ([]schedule.Schedule, error) {
	return listOf(ctx, s, "list schedules", scanSchedule, `SELECT `+scheduleCols+` FROM schedules ORDER BY created_at, id`)
}

// UpdateSchedule replaces a schedule's editable fields and its cursor.
func (s *Store) UpdateSchedule(ctx context.Context, sc schedule.Schedule) (schedule.Schedule, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE schedules SET name = ?, prompt = ?, agent = ?, model = ?, project_id = ?,
		phrase = ?, cron = ?, once_at = ?, timezone = ?, target = ?, session_id = ?, missed = ?, enabled = ?, cursor = ?,
		updated_at = ? WHERE id = ?`,
		sc.Name, sc.Prompt, sc.Agent, sc.Model, sc.ProjectID, sc.Phrase, sc.Cron, onceArg(sc.At), sc.Timezone,
		string(sc.Target), sc.SessionID, string(sc.Missed), sc.Enabled, sc.Cursor.UnixNano(), nowNanos(), sc.ID)
	if err != nil {
		return schedule.Schedule{}, s.wrap("update schedule "+sc.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return schedule.Schedule{}, fmt.Errorf("journal: schedule %s: %w", sc.ID, ErrNotFound)
	}
	return s.GetSchedule(ctx, sc.ID)
}

// SetScheduleSession records the continuing session of a schedule.
func (s *Store) SetScheduleSession(ctx context.Context, id, sessionID string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE schedules SET session_id = ? WHERE id = ?`, sessionID, id)
	return s.wrap("set schedule session "+id, err)
}

// DeleteSchedule removes a schedule and its history (its runs stay).
func (s *Store) DeleteSchedule(ctx context.Context, id string) error {
	return s.changeOne(ctx, "delete schedule "+id, "schedule", id, `DELETE FROM schedules WHERE id = ?`, id)
}

// AddFiring records f and, when cursor is set, moves the schedule's cursor
// to it, in one transaction. A schedule deleted meanwhile is ErrNotFound.
func (s *Store) AddFiring(ctx context.Context, f schedule.Firing, cursor *time.Time) (schedule.Firing, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return f, s.wrap("add firing", err)
	}
	defer tx.Rollback()
	if f.At.IsZero() {
		f.At = fromNanos(nowNanos())
	}
	var res sql.Result
	if cursor != nil {
		res, err = tx.ExecContext(ctx, `UPDATE schedules SET cursor = ? WHERE id = ?`, cursor.UnixNano(), f.ScheduleID)
	} else {
		res, err = tx.ExecContext(ctx, `UPDATE schedules SET cursor = cursor WHERE id = ?`, f.ScheduleID)
	}
	if err != nil {
		return f, s.wrap("add firing", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return f, fmt.Errorf("journal: schedule %s: %w", f.ScheduleID, ErrNotFound)
	}
	r, err := tx.ExecContext(ctx, `INSERT INTO schedule_firings (schedule_id, due_at, at, outcome, run_id, session_id,
		request_id, missed, catch_up, manual, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		f.ScheduleID, f.DueAt.UnixNano(), f.At.UnixNano(), string(f.Outcome), f.RunID, f.SessionID, f.RequestID,
		f.Missed, f.CatchUp, f.Manual, f.Reason)
	if err != nil {
		return f, s.wrap("add firing", err)
	}
	f.ID, _ = r.LastInsertId()
	return f, s.wrap("add firing", tx.Commit())
}

// FinishFiring records how a starting firing ended: fired with its run, or
// failed to start with the reason.
func (s *Store) FinishFiring(ctx context.Context, id int64, outcome schedule.Outcome, runID, sessionID, reason string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE schedule_firings SET outcome = ?, run_id = ?,
		session_id = CASE WHEN ? = '' THEN session_id ELSE ? END, reason = ? WHERE id = ?`,
		string(outcome), runID, sessionID, sessionID, reason, id)
	return s.wrap("finish firing", err)
}

// firingCols reads a fired row's run: its status, its error, and whether
// it failed before its agent ran — no run.started (the shim never came
// up) or an error coded as a start failure by the shim (the agent is not
// installed, could not be started, or is unknown: run.StartFailureCodes,
// the typed codes, never restated here). Only failed runs pay for the look
// at their events.
var firingCols = `f.id, f.schedule_id, f.due_at, f.at, f.outcome, f.run_id, f.session_id, f.request_id, f.missed,
	f.catch_up, f.manual, f.reason, COALESCE(r.status, ''), COALESCE(r.error, ''),
	CASE WHEN r.status = ` + sqlString(string(run.StatusFailed)) + ` THEN
		NOT EXISTS (SELECT 1 FROM events e WHERE e.run_id = r.id AND e.type = ` + sqlString(string(run.EventRunStarted)) + `)
		OR EXISTS (SELECT 1 FROM events e WHERE e.run_id = r.id AND e.type = ` + sqlString(string(run.EventError)) + `
			AND json_extract(CAST(e.payload AS TEXT), '$.code') IN (` + sqlStrings(run.StartFailureCodes) + `))
	ELSE 0 END`

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// sqlStrings is codes as a comma-separated list of SQL string literals.
func sqlStrings[T ~string](codes []T) string {
	q := make([]string, len(codes))
	for i, c := range codes {
		q[i] = sqlString(string(c))
	}
	return strings.Join(q, ", ")
}

func scanFiring(sc interface{ Scan(...any) error }) (schedule.Firing, error) {
	var f schedule.Firing
	var due, at int64
	var outcome, status string
	err := sc.Scan(&f.ID, &f.ScheduleID, &due, &at, &outcome, &f.RunID, &f.SessionID, &f.RequestID, &f.Missed,
		&f.CatchUp, &f.Manual, &f.Reason, &status, &f.RunError, &f.StartFailed)
	f.DueAt, f.At, f.Outcome, f.RunStatus = fromNanos(due), fromNanos(at), schedule.Outcome(outcome), run.Status(status)
	f.Settle()
	return f, err
}

func (s *Store) queryFirings(ctx context.Context, op, where string, args ...any) ([]schedule.Firing, error) {
	return listOf(ctx, s, op, scanFiring, `SELECT `+firingCols+` FROM schedule_firings f
		LEFT JOIN runs r ON r.id = f.run_id AND f.run_id <> '' `+where, args...)
}

// Firings returns a schedule's history, newest first, with each fired
// row's real status read from its run.
func (s *Store) Firings(ctx context.Context, scheduleID string, limit int) ([]schedule.Firing, error) {
	if limit <= 0 {
		limit = 100
	}
	return s.queryFirings(ctx, "list firings", `WHERE f.schedule_id = ? ORDER BY f.id DESC LIMIT ?`, scheduleID, limit)
}

// LastFirings returns each schedule's newest firing, by schedule id.
func (s *Store) LastFirings(ctx context.Context) (map[string]schedule.Firing, error) {
	fs, err := s.queryFirings(ctx, "last firings",
		`WHERE f.id IN (SELECT MAX(id) FROM schedule_firings GROUP BY schedule_id)`)
	out := make(map[string]schedule.Firing, len(fs))
	for _, f := range fs {
		out[f.ScheduleID] = f
	}
	return out, err
}

// LastRunFiring returns the schedule's newest firing that started a run
// (for the overlap check); ok is false when there is none.
func (s *Store) LastRunFiring(ctx context.Context, scheduleID string) (schedule.Firing, bool, error) {
	fs, err := s.queryFirings(ctx, "last run firing",
		`WHERE f.schedule_id = ? AND f.run_id <> '' ORDER BY f.id DESC LIMIT 1`, scheduleID)
	if err != nil || len(fs) == 0 {
		return schedule.Firing{}, false, err
	}
	return fs[0], true, nil
}

// StartingFirings lists firings recorded as starting whose start was never
// finished (the supervisor stopped in between), oldest first.
func (s *Store) StartingFirings(ctx context.Context) ([]schedule.Firing, error) {
	return s.queryFirings(ctx, "starting firings", `WHERE f.outcome = ? ORDER BY f.id`, string(schedule.OutcomeStarting))
}
