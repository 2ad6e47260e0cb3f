package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// ExportSession gathers a session (or one of its runs, when runID is set)
// into a bundle: its messages, its runs' rows and every event
// (docs/ARCHITECTURE.md §Bundles).
func (s *Store) ExportSession(ctx context.Context, sessionID, runID string) (bundle.Bundle, error) {
	ses, err := s.GetSession(ctx, sessionID)
	if err != nil {
		return bundle.Bundle{}, err
	}
	prj, err := s.GetProject(ctx, ses.ProjectID)
	if err != nil {
		return bundle.Bundle{}, err
	}
	msgs, err := s.Messages(ctx, sessionID)
	if err != nil {
		return bundle.Bundle{}, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+runCols+` FROM runs WHERE session_id = ? AND (? = '' OR id = ?)
		ORDER BY created_at, rowid`, sessionID, runID, runID)
	if err != nil {
		return bundle.Bundle{}, s.wrap("export runs of "+sessionID, err)
	}
	var runs []run.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			rows.Close()
			return bundle.Bundle{}, s.wrap("export runs of "+sessionID, err)
		}
		runs = append(runs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return bundle.Bundle{}, s.wrap("export runs of "+sessionID, err)
	}
	if runID != "" && len(runs) == 0 {
		return bundle.Bundle{}, fmt.Errorf("journal: export run %s of %s: %w", runID, sessionID, ErrNotFound)
	}
	b := bundle.Bundle{
		Manifest: bundle.Manifest{ExportedAt: time.Now().UTC(), Project: bundle.Project{Name: prj.Name, Workspace: prj.Workspace}, Session: ses},
		Events:   map[string][]run.Event{},
	}
	keep := map[string]bool{}
	for _, r := range runs {
		b.Manifest.Runs = append(b.Manifest.Runs, bundle.Run{ID: r.ID, UserMessageID: r.UserMessageID, AssistantMessageID: r.AssistantMessageID,
			Agent: r.Agent, Model: r.Model, Status: r.Status, Error: r.Error, CreatedAt: r.CreatedAt, EndedAt: r.EndedAt})
		keep[r.ID] = true
		for after := int64(0); ; {
			page, err := s.Events(ctx, r.ID, after, 5000)
			if err != nil {
				return bundle.Bundle{}, err
			}
			if len(page) == 0 {
				break
			}
			b.Events[r.ID] = append(b.Events[r.ID], page...)
			after = page[len(page)-1].Seq
		}
	}
	for _, m := range msgs {
		if runID == "" || keep[m.RunID] {
			b.Manifest.Messages = append(b.Manifest.Messages, m)
		}
	}
	return b, nil
}

// ImportedProjectID is the dedicated place for imported sessions: a
// project with no folder, made on the first import, where nothing can run
// (docs/ARCHITECTURE.md §Bundles). A bundle's own project (name, folder) is
// only something to read: a file from elsewhere must never pick a folder
// on this machine nor join a project of one.
const ImportedProjectID = "prj_imported"

// endedWithoutDone is the closing event's error for a run the bundle leaves
// open: it will not go on here.
const endedWithoutDone = "the bundle ends before this run did"

// ImportSession stores a decoded bundle as a new read-only session, in the
// project o.ProjectID names (one the person picked) or else in the
// Imported place, with fresh ids, and indexes it for search. It is one
// transaction: a failure leaves nothing behind. A bundle whose o.Digest is
// already a session here gives that session and bundle.ErrAlreadyImported.
//
// A bundle is not trusted: times later than now are clamped to now, a run
// that has no terminal done is closed with a journalled
// done{interrupted} (so nothing reads it as live, and its event stream
// ends), and a run's status is its done's.
func (s *Store) ImportSession(ctx context.Context, b bundle.Bundle, o bundle.ImportOptions) (run.Session, error) {
	m := b.Manifest
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return run.Session{}, s.wrap("import", err)
	}
	defer tx.Rollback()
	at := nowNanos()
	clamp := func(t time.Time) int64 { return min(nanosOr(t, at), at) }

	if o.Digest != "" {
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM sessions WHERE import_digest = ? ORDER BY created_at LIMIT 1`, o.Digest).Scan(&id)
		if err == nil {
			tx.Rollback()
			ses, err := s.GetSession(ctx, id)
			if err != nil {
				return run.Session{}, err
			}
			return ses, bundle.ErrAlreadyImported
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return run.Session{}, s.wrap("import: find an earlier import", err)
		}
	}

	projectID := o.ProjectID
	if projectID != "" {
		var one int
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM projects WHERE id = ?`, projectID).Scan(&one); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return run.Session{}, fmt.Errorf("journal: import into project %s: %w", projectID, ErrNotFound)
			}
			return run.Session{}, s.wrap("import: project", err)
		}
	} else {
		projectID = ImportedProjectID
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO projects (id, name, workspace, created_at) VALUES (?, 'Imported', '', ?)`,
			projectID, at); err != nil {
			return run.Session{}, s.wrap("import: the Imported place", err)
		}
	}

	ses := m.Session
	sessionID := newID(prefixSession)
	if o.Source == "" {
		o.Source = "bundle"
	}
	created, updated := clamp(ses.CreatedAt), clamp(ses.UpdatedAt)
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, project_id, title, agent, model, profile, archived,
		native_session_id, created_at, updated_at, imported_from, import_digest) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
		sessionID, projectID, ses.Title, ses.Agent, ses.Model, ses.Profile, o.NativeSessionID, created, updated, o.Source, o.Digest); err != nil {
		return run.Session{}, s.wrap("import: session", err)
	}

	if err := s.insertImported(ctx, tx, sessionID, projectID, m.Messages, m.Runs, b.Events, at); err != nil {
		return run.Session{}, err
	}
	if err := tx.Commit(); err != nil {
		return run.Session{}, s.wrap("import: commit", err)
	}
	return s.GetSession(ctx, sessionID)
}

// insertImported stores imported runs with their messages and events under
// fresh ids (one of each: bundles and the agents' histories both come in
// here), indexed for search. at is now (unix nanos); times are clamped to it.
func (s *Store) insertImported(ctx context.Context, tx *sql.Tx, sessionID, projectID string, msgs []run.Message, runs []bundle.Run,
	events map[string][]run.Event, at int64) error {
	clamp := func(t time.Time) int64 { return min(nanosOr(t, at), at) }
	ids := map[string]string{} // old id → new id (messages and runs)
	mapID := func(old, prefix string) string {
		if old == "" {
			return ""
		}
		if n, ok := ids[old]; ok {
			return n
		}
		ids[old] = newID(prefix)
		return ids[old]
	}
	for _, r := range runs {
		mapID(r.ID, prefixRun)
	}
	for _, msg := range msgs {
		if msg.Role != run.RoleUser && msg.Role != run.RoleAssistant {
			continue
		}
		id := mapID(msg.ID, prefixMessage)
		mat := clamp(msg.CreatedAt)
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages (id, session_id, role, content, run_id, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			id, sessionID, string(msg.Role), msg.Content, ids[msg.RunID], mat); err != nil {
			return s.wrap("import: message", err)
		}
		if err := indexText(ctx, tx, string(msg.Role), sessionID, ids[msg.RunID], id, 0, msg.Content, mat); err != nil {
			return s.wrap("import: index", err)
		}
	}
	for _, r := range runs {
		newRun := ids[r.ID]
		evs := closeImportedRun(events[r.ID], float64(at)/1e9)
		last := evs[len(evs)-1]
		var done run.Done
		_ = json.Unmarshal(last.Payload, &done) // closeImportedRun made it a terminal done
		rat := clamp(r.CreatedAt)
		ended := rat
		if r.EndedAt != nil {
			ended = max(clamp(*r.EndedAt), rat)
		}
		errText := r.Error
		if done.Error != "" {
			errText = done.Error
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO runs (id, project_id, session_id, turn_id, user_message_id, assistant_message_id,
			agent, model, status, last_seq, terminal, error, created_at, started_at, ended_at) VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
			newRun, projectID, sessionID, ids[r.UserMessageID], ids[r.AssistantMessageID], r.Agent, r.Model, string(done.Status), last.Seq,
			errText, rat, rat, ended); err != nil {
			return s.wrap("import: run", err)
		}
		for _, ev := range evs {
			payload := []byte(ev.Payload)
			if ev.Type == run.EventMessageUser {
				var p run.MessageUser
				if json.Unmarshal(payload, &p) == nil && ids[p.MessageID] != "" {
					p.MessageID = ids[p.MessageID]
					payload, _ = json.Marshal(p)
				}
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, ?, ?, ?, ?)`,
				newRun, ev.Seq, string(ev.Type), ev.CreatedAt, payload); err != nil {
				return s.wrap("import: event", err)
			}
			if text, kind := importedText(ev.Type, payload); text != "" {
				if err := indexText(ctx, tx, kind, sessionID, newRun, "", ev.Seq, text, int64(ev.CreatedAt*1e9)); err != nil {
					return s.wrap("import: index", err)
				}
			}
		}
	}
	return nil
}

// closeImportedRun returns a run's imported events with times clamped to
// now (unix seconds) and ending in a terminal done: a done whose status is
// not terminal is made interrupted, and a run without one gets a
// done{interrupted} after its last event. Pure: it never changes evs.
func closeImportedRun(evs []run.Event, now float64) []run.Event {
	out := make([]run.Event, len(evs), len(evs)+1)
	copy(out, evs)
	for i := range out {
		out[i].CreatedAt = min(out[i].CreatedAt, now)
	}
	interrupted := func(extra string) json.RawMessage {
		p, _ := json.Marshal(run.Done{Status: run.StatusInterrupted, Error: extra})
		return p
	}
	if n := len(out); n > 0 && out[n-1].Type == run.EventDone {
		var d run.Done
		if json.Unmarshal(out[n-1].Payload, &d) != nil || !d.Status.Terminal() {
			out[n-1].Payload = interrupted(endedWithoutDone)
		}
		out[n-1].Terminal = true
		return out
	}
	var seq int64 = 1
	at := now
	if n := len(out); n > 0 {
		seq, at = out[n-1].Seq+1, out[n-1].CreatedAt
	}
	return append(out, run.Event{Seq: seq, Type: run.EventDone, CreatedAt: at, Terminal: true, Payload: interrupted(endedWithoutDone)})
}

// importedText is what search indexes of an imported event, as the live
// path does (apply.go): a thought, a tool's output, a change.
func importedText(t run.EventType, payload []byte) (text, kind string) {
	switch t {
	case run.EventReasoningDone:
		var p run.TextDone
		_ = json.Unmarshal(payload, &p)
		return p.Text, "reasoning"
	case run.EventToolDone:
		var p run.ToolDone
		_ = json.Unmarshal(payload, &p)
		return strings.TrimSpace(p.Output + "\n" + p.Error), "tool"
	case run.EventFileChanged:
		var p run.FileChanged
		if json.Unmarshal(payload, &p) != nil || p.Path == "" {
			return "", ""
		}
		return p.Path + "\n" + truncateIndex(p.Diff), "file"
	}
	return "", ""
}

func nanosOr(t time.Time, def int64) int64 {
	if t.IsZero() {
		return def
	}
	return t.UnixNano()
}

// AppendImported adds to the session imported under digest the runs of b it
// does not have yet (b's runs past the number the session holds): an agent's
// history file that grew gets its new turns, and reading it again adds
// nothing (docs/ARCHITECTURE.md §History). lastMayChange: the format has no
// turn-end mark (Gemini CLI), so the session's last stored run may have
// grown since; when b's run in its place differs, it is replaced (its rows
// and search entries deleted, b's stored anew) and counted as added.
// ErrNotFound: nothing was imported under digest.
func (s *Store) AppendImported(ctx context.Context, digest string, b bundle.Bundle, lastMayChange bool) (run.Session, int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return run.Session{}, 0, s.wrap("append import", err)
	}
	defer tx.Rollback()
	var sessionID, projectID, found string
	err = tx.QueryRowContext(ctx, `SELECT id, project_id, import_digest FROM sessions WHERE import_digest IN (?, ?) ORDER BY created_at LIMIT 1`,
		digest, continuedPrefix+digest).Scan(&sessionID, &projectID, &found)
	if errors.Is(err, sql.ErrNoRows) {
		return run.Session{}, 0, fmt.Errorf("journal: nothing imported as %s: %w", digest, ErrNotFound)
	}
	if err != nil {
		return run.Session{}, 0, s.wrap("append import: find the session", err)
	}
	var have int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM runs WHERE session_id = ?`, sessionID).Scan(&have); err != nil {
		return run.Session{}, 0, s.wrap("append import: count runs", err)
	}
	m := b.Manifest
	if lastMayChange && found == digest && have > 0 && have <= len(m.Runs) {
		replaced, err := s.replaceChangedLastRun(ctx, tx, sessionID, b.Events[m.Runs[have-1].ID])
		if err != nil {
			return run.Session{}, 0, err
		}
		if replaced {
			have--
		}
	}
	if have >= len(m.Runs) || found != digest { // continued in the app: its own turns now
		tx.Rollback()
		ses, err := s.GetSession(ctx, sessionID)
		return ses, 0, err
	}
	runs := m.Runs[have:]
	mine := map[string]bool{}
	for _, r := range runs {
		mine[r.ID] = true
	}
	var msgs []run.Message
	for _, msg := range m.Messages {
		if mine[msg.RunID] {
			msgs = append(msgs, msg)
		}
	}
	at := nowNanos()
	if err := s.insertImported(ctx, tx, sessionID, projectID, msgs, runs, b.Events, at); err != nil {
		return run.Session{}, 0, err
	}
	updated := min(nanosOr(m.Session.UpdatedAt, at), at)
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?`, updated, sessionID); err != nil {
		return run.Session{}, 0, s.wrap("append import: session", err)
	}
	// The agent may go on under a new id (Hermes Agent after compressing
	// the conversation): Continue resumes the newest.
	if n := m.Session.NativeSessionID; n != "" {
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET native_session_id = ? WHERE id = ?`, n, sessionID); err != nil {
			return run.Session{}, 0, s.wrap("append import: session id", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return run.Session{}, 0, s.wrap("append import: commit", err)
	}
	ses, err := s.GetSession(ctx, sessionID)
	return ses, len(runs), err
}

// continuedPrefix marks the digest of an imported history session that was
// continued in the app: it is an ordinary session from then on, and the
// agent's file, which now also holds the app's turns, no longer feeds it.
const continuedPrefix = "continued:"

// ContinueImported makes a session imported from an agent's own history
// (one with the agent's session id) an ordinary session, so its next
// message runs in its agent under that id (docs/ARCHITECTURE.md §History).
// A bundle's session stays read-only: ErrSessionImported.
func (s *Store) ContinueImported(ctx context.Context, sessionID string) (run.Session, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE sessions SET imported_from = '', import_digest = ? || import_digest
		WHERE id = ? AND imported_from != '' AND native_session_id != '' AND import_digest LIKE 'history:%'`, continuedPrefix, sessionID)
	if err != nil {
		return run.Session{}, s.wrap("continue imported session", err)
	}
	ses, err := s.GetSession(ctx, sessionID)
	if err != nil {
		return run.Session{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 && ses.ImportedFrom != "" {
		return ses, fmt.Errorf("journal: continue %s: %w", sessionID, ErrSessionImported)
	}
	return ses, nil
}

// replaceChangedLastRun deletes the session's last run (its events,
// messages and search entries) when its events differ from evs, the same
// turn as read now, so the caller stores it anew; true when it did. The
// user message's id is fresh on every import, so message.user is compared
// without it.
func (s *Store) replaceChangedLastRun(ctx context.Context, tx *sql.Tx, sessionID string, evs []run.Event) (bool, error) {
	var runID string
	if err := tx.QueryRowContext(ctx, `SELECT id FROM runs WHERE session_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
		sessionID).Scan(&runID); err != nil {
		return false, s.wrap("append import: find the last run", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT type, payload FROM events WHERE run_id = ? ORDER BY seq`, runID)
	if err != nil {
		return false, s.wrap("append import: read the last run", err)
	}
	var stored [][2]string
	for rows.Next() {
		var typ, payload string
		if err := rows.Scan(&typ, &payload); err != nil {
			rows.Close()
			return false, s.wrap("append import: read the last run", err)
		}
		stored = append(stored, [2]string{typ, withoutMessageID(run.EventType(typ), payload)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, s.wrap("append import: read the last run", err)
	}
	now := closeImportedRun(evs, float64(nowNanos())/1e9)
	same := len(now) == len(stored)
	for i := 0; same && i < len(now); i++ {
		same = stored[i] == [2]string{string(now[i].Type), withoutMessageID(now[i].Type, string(now[i].Payload))}
	}
	if same {
		return false, nil
	}
	for _, q := range []string{
		`DELETE FROM search_fts WHERE rowid IN (SELECT id FROM search_docs WHERE run_id = ?)`,
		`DELETE FROM search_docs WHERE run_id = ?`,
		`DELETE FROM events WHERE run_id = ?`,
		`DELETE FROM messages WHERE run_id = ?`,
		`DELETE FROM runs WHERE id = ?`,
	} {
		if _, err := tx.ExecContext(ctx, q, runID); err != nil {
			return false, s.wrap("append import: replace the last run", err)
		}
	}
	return true, nil
}

// withoutMessageID is an event's payload for comparing two imports of one
// turn: message.user without its (per-import) message id.
func withoutMessageID(t run.EventType, payload string) string {
	if t != run.EventMessageUser {
		return payload
	}
	var p run.MessageUser
	if json.Unmarshal([]byte(payload), &p) != nil {
		return payload
	}
	p.MessageID = ""
	out, _ := json.Marshal(p)
	return string(out)
}
