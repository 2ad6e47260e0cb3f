package journal

import (
	"context"
	"encoding/json"
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

// ImportSession stores a decoded bundle as a new read-only session in a
// project for its workspace (created when none exists), with fresh ids so
// the same bundle can be imported twice, and indexes it for search. It is
// one transaction: a failure leaves nothing behind.
func (s *Store) ImportSession(ctx context.Context, b bundle.Bundle, source string) (run.Session, error) {
	m := b.Manifest
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return run.Session{}, s.wrap("import", err)
	}
	defer tx.Rollback()
	at := nowNanos()

	var projectID string
	// One project per folder: a bundle from a folder that has a project here
	// joins it.
	err = tx.QueryRowContext(ctx, `SELECT id FROM projects WHERE workspace = ? AND (workspace <> '' OR name = ?) ORDER BY created_at LIMIT 1`,
		m.Project.Workspace, m.Project.Name).Scan(&projectID)
	if err != nil {
		projectID = newID(prefixProject)
		name := m.Project.Name
		if name == "" {
			name = "Imported"
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO projects (id, name, workspace, created_at) VALUES (?, ?, ?, ?)`,
			projectID, name, m.Project.Workspace, at); err != nil {
			return run.Session{}, s.wrap("import: project", err)
		}
	}

	ses := m.Session
	sessionID := newID(prefixSession)
	if source == "" {
		source = "bundle"
	}
	created, updated := nanosOr(ses.CreatedAt, at), nanosOr(ses.UpdatedAt, at)
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, project_id, title, agent, model, profile, archived,
		native_session_id, created_at, updated_at, imported_from) VALUES (?, ?, ?, ?, ?, ?, 0, '', ?, ?, ?)`,
		sessionID, projectID, ses.Title, ses.Agent, ses.Model, ses.Profile, created, updated, source); err != nil {
		return run.Session{}, s.wrap("import: session", err)
	}

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
	runOf := map[string]bundle.Run{}
	for _, r := range m.Runs {
		runOf[r.ID] = r
		mapID(r.ID, prefixRun)
	}
	for _, msg := range m.Messages {
		if msg.Role != run.RoleUser && msg.Role != run.RoleAssistant {
			continue
		}
		id := mapID(msg.ID, prefixMessage)
		mat := nanosOr(msg.CreatedAt, at)
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages (id, session_id, role, content, run_id, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			id, sessionID, string(msg.Role), msg.Content, ids[msg.RunID], mat); err != nil {
			return run.Session{}, s.wrap("import: message", err)
		}
		if err := indexText(ctx, tx, string(msg.Role), sessionID, ids[msg.RunID], id, 0, msg.Content, mat); err != nil {
			return run.Session{}, s.wrap("import: index", err)
		}
	}
	for _, r := range m.Runs {
		newRun := ids[r.ID]
		evs := b.Events[r.ID]
		var last int64
		if len(evs) > 0 {
			last = evs[len(evs)-1].Seq
		}
		status := r.Status
		if !status.Terminal() {
			status = run.StatusInterrupted // exported mid-run: it will not go on here
		}
		var ended any
		if r.EndedAt != nil {
			ended = r.EndedAt.UnixNano()
		}
		rat := nanosOr(r.CreatedAt, at)
		if _, err := tx.ExecContext(ctx, `INSERT INTO runs (id, project_id, session_id, turn_id, user_message_id, assistant_message_id,
			agent, model, status, last_seq, terminal, error, created_at, started_at, ended_at) VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
			newRun, projectID, sessionID, ids[r.UserMessageID], ids[r.AssistantMessageID], r.Agent, r.Model, string(status), last,
			r.Error, rat, rat, ended); err != nil {
			return run.Session{}, s.wrap("import: run", err)
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
				return run.Session{}, s.wrap("import: event", err)
			}
			if text, kind := importedText(ev.Type, payload); text != "" {
				if err := indexText(ctx, tx, kind, sessionID, newRun, "", ev.Seq, text, int64(ev.CreatedAt*1e9)); err != nil {
					return run.Session{}, s.wrap("import: index", err)
				}
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return run.Session{}, s.wrap("import: commit", err)
	}
	return s.GetSession(ctx, sessionID)
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
