package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// CreateProject adds a project (a folder a person works in).
func (s *Store) CreateProject(ctx context.Context, name, workspace string) (run.Project, error) {
	name, workspace = strings.TrimSpace(name), strings.TrimSpace(workspace)
	if name == "" || workspace == "" {
		return run.Project{}, fmt.Errorf("journal: create project: name and workspace are required: %w", ErrInvalid)
	}
	p := run.Project{ID: newID(prefixProject), Name: name, Workspace: workspace}
	at := nowNanos()
	p.CreatedAt = fromNanos(at)
	if _, err := s.db.ExecContext(ctx, `INSERT INTO projects (id, name, workspace, created_at) VALUES (?, ?, ?, ?)`,
		p.ID, p.Name, p.Workspace, at); err != nil {
		return run.Project{}, s.wrap("create project", err)
	}
	return p, nil
}

// ListProjects returns every project, oldest first.
func (s *Store) ListProjects(ctx context.Context) ([]run.Project, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, workspace, created_at FROM projects ORDER BY created_at, id`)
	if err != nil {
		return nil, s.wrap("list projects", err)
	}
	defer rows.Close()
	var out []run.Project
	for rows.Next() {
		var p run.Project
		var at int64
		if err := rows.Scan(&p.ID, &p.Name, &p.Workspace, &at); err != nil {
			return nil, s.wrap("list projects", err)
		}
		p.CreatedAt = fromNanos(at)
		out = append(out, p)
	}
	return out, s.wrap("list projects", rows.Err())
}

// GetProject returns one project or ErrNotFound.
func (s *Store) GetProject(ctx context.Context, id string) (run.Project, error) {
	p := run.Project{ID: id}
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT name, workspace, created_at FROM projects WHERE id = ?`, id).
		Scan(&p.Name, &p.Workspace, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return run.Project{}, fmt.Errorf("journal: project %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return run.Project{}, s.wrap("get project "+id, err)
	}
	p.CreatedAt = fromNanos(at)
	return p, nil
}

// CreateSession adds a conversation to a project. ID and times are
// generated when empty.
func (s *Store) CreateSession(ctx context.Context, ses run.Session) (run.Session, error) {
	if ses.ProjectID == "" {
		return run.Session{}, fmt.Errorf("journal: create session: project_id is required: %w", ErrInvalid)
	}
	if ses.ID == "" {
		ses.ID = newID(prefixSession)
	}
	at := nowNanos()
	if ses.CreatedAt.IsZero() {
		ses.CreatedAt = fromNanos(at)
	}
	if ses.UpdatedAt.IsZero() {
		ses.UpdatedAt = ses.CreatedAt
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO sessions (id, project_id, title, agent, model, profile, archived,
		native_session_id, created_at, updated_at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM projects WHERE id = ?)`,
		ses.ID, ses.ProjectID, ses.Title, ses.Agent, ses.Model, ses.Profile, ses.Archived, ses.NativeSessionID,
		ses.CreatedAt.UnixNano(), ses.UpdatedAt.UnixNano(), ses.ProjectID)
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return run.Session{}, fmt.Errorf("journal: create session %s: %w: id exists", ses.ID, ErrConflict)
		}
		return run.Session{}, s.wrap("create session", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return run.Session{}, fmt.Errorf("journal: create session: project %s: %w", ses.ProjectID, ErrNotFound)
	}
	return s.GetSession(ctx, ses.ID)
}

const sessionCols = `id, project_id, title, agent, model, profile, archived, native_session_id, created_at, updated_at, imported_from, config, workspace_id,
	COALESCE((SELECT r.status FROM runs r WHERE r.session_id = sessions.id
		AND NOT (r.status = 'cancelled' AND r.started_at IS NULL)
		ORDER BY r.created_at DESC, r.id DESC LIMIT 1), '')`

func scanSession(sc interface{ Scan(...any) error }) (run.Session, error) {
	var ses run.Session
	var c, u int64
	var config string
	err := sc.Scan(&ses.ID, &ses.ProjectID, &ses.Title, &ses.Agent, &ses.Model, &ses.Profile, &ses.Archived,
		&ses.NativeSessionID, &c, &u, &ses.ImportedFrom, &config, &ses.WorkspaceID, &ses.LastRunStatus)
	ses.CreatedAt, ses.UpdatedAt = fromNanos(c), fromNanos(u)
	if config != "" && config != "{}" {
		// Written only through configPatch; a damaged value reads as no
		// choices rather than hiding the session.
		_ = json.Unmarshal([]byte(config), &ses.Config)
	}
	return ses, err
}

// GetSession returns one session or ErrNotFound.
func (s *Store) GetSession(ctx context.Context, id string) (run.Session, error) {
	return oneOf(ctx, s, "session", id, scanSession, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`)
}

// ListSessions returns a project's sessions ("" = all projects), most
// recent meaningful activity first.
func (s *Store) ListSessions(ctx context.Context, projectID string) ([]run.Session, error) {
	return listOf(ctx, s, "list sessions", scanSession, `SELECT `+sessionCols+` FROM sessions
		WHERE ? = '' OR project_id = ? ORDER BY updated_at DESC, id`, projectID, projectID)
}

// UpdateSession applies u. A title or archive change is the person's
// activity and moves updated_at; NativeSessionID alone does not.
func (s *Store) UpdateSession(ctx context.Context, id string, u run.SessionUpdate) (run.Session, error) {
	var sets []string
	var args []any
	if u.Title != nil {
		sets, args = append(sets, "title = ?"), append(args, strings.TrimSpace(*u.Title))
	}
	if u.Archived != nil {
		sets, args = append(sets, "archived = ?"), append(args, *u.Archived)
	}
	if u.Model != nil {
		sets, args = append(sets, "model = ?"), append(args, *u.Model)
	}
	if len(u.Config) > 0 {
		patch, err := configPatch(u.Config)
		if err != nil {
			return run.Session{}, fmt.Errorf("journal: update session %s: %w", id, err)
		}
		sets, args = append(sets, configPatchSQL), append(args, patch)
	}
	if u.Title != nil || u.Archived != nil {
		sets, args = append(sets, "updated_at = ?"), append(args, nowNanos())
	}
	if u.NativeSessionID != nil {
		sets, args = append(sets, "native_session_id = ?"), append(args, *u.NativeSessionID)
	}
	if len(sets) > 0 {
		res, err := s.db.ExecContext(ctx, `UPDATE sessions SET `+strings.Join(sets, ", ")+` WHERE id = ?`, append(args, id)...)
		if err != nil {
			return run.Session{}, s.wrap("update session "+id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return run.Session{}, fmt.Errorf("journal: session %s: %w", id, ErrNotFound)
		}
	}
	return s.GetSession(ctx, id)
}

// DeleteSession removes a session with its messages, turns, runs, events
// and search entries. A session with an active run is refused
// (ErrConflict): cancel it first.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("delete session "+id, err)
	}
	defer tx.Rollback()
	var active int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM runs WHERE session_id = ? AND terminal = 0`, id).Scan(&active); err != nil {
		return s.wrap("delete session "+id, err)
	}
	if active > 0 {
		return fmt.Errorf("journal: delete session %s: %w: it has %d active run(s)", id, ErrConflict, active)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_fts WHERE rowid IN (SELECT id FROM search_docs WHERE session_id = ?)`, id); err != nil {
		return s.wrap("delete session "+id, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_docs WHERE session_id = ?`, id); err != nil {
		return s.wrap("delete session "+id, err)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id)
	if err != nil {
		return s.wrap("delete session "+id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("journal: session %s: %w", id, ErrNotFound)
	}
	return s.wrap("delete session "+id, tx.Commit())
}

// Messages returns a session's transcript in order. An assistant message
// whose run is still going is assembled from the run's token deltas; once
// the run ended, its stored content is used.
func (s *Store) Messages(ctx context.Context, sessionID string) ([]run.Message, error) {
	if _, err := s.GetSession(ctx, sessionID); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT m.id, m.role, m.content, m.run_id, m.created_at,
		COALESCE(r.status, ''), COALESCE(r.terminal, 1), COALESCE(r.error, ''), m.attachments
		FROM messages m LEFT JOIN runs r ON r.id = m.run_id AND m.role = 'assistant'
		WHERE m.session_id = ? ORDER BY m.created_at, m.rowid`, sessionID)
	if err != nil {
		return nil, s.wrap("read messages of "+sessionID, err)
	}
	var out []run.Message
	var live []int
	for rows.Next() {
		m := run.Message{SessionID: sessionID}
		var at int64
		var role, status, attached string
		var terminal bool
		if err := rows.Scan(&m.ID, &role, &m.Content, &m.RunID, &at, &status, &terminal, &m.Error, &attached); err != nil {
			rows.Close()
			return nil, s.wrap("read messages of "+sessionID, err)
		}
		m.Role, m.CreatedAt, m.RunStatus = run.Role(role), fromNanos(at), run.Status(status)
		if attached != "" {
			// Written by Submit as a JSON array of paths; an unreadable
			// value shows no chips rather than failing the transcript.
			_ = json.Unmarshal([]byte(attached), &m.Attachments)
		}
		if m.Role == run.RoleAssistant && !terminal {
			live = append(live, len(out))
		}
		out = append(out, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.wrap("read messages of "+sessionID, err)
	}
	for _, i := range live {
		text, _, err := assembleText(ctx, s.db, out[i].RunID)
		if err != nil {
			return nil, s.wrap("assemble message "+out[i].ID, err)
		}
		out[i].Content = text
	}
	return out, nil
}

// GetSettings returns every stored setting.
func (s *Store) GetSettings(ctx context.Context) (map[string]json.RawMessage, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, value FROM settings ORDER BY key`)
	if err != nil {
		return nil, s.wrap("read settings", err)
	}
	defer rows.Close()
	out := map[string]json.RawMessage{}
	for rows.Next() {
		var k string
		var v []byte
		if err := rows.Scan(&k, &v); err != nil {
			return nil, s.wrap("read settings", err)
		}
		out[k] = v
	}
	return out, s.wrap("read settings", rows.Err())
}

// PutSetting stores one setting; value must be valid JSON.
func (s *Store) PutSetting(ctx context.Context, key string, value json.RawMessage) error {
	if strings.TrimSpace(key) == "" || !json.Valid(value) {
		return fmt.Errorf("journal: setting %q: key required and value must be JSON: %w", key, ErrInvalid)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		key, string(value), nowNanos())
	return s.wrap("put setting "+key, err)
}

// RenameProject changes a project's name (its folder stays).
func (s *Store) RenameProject(ctx context.Context, id, name string) (run.Project, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return run.Project{}, fmt.Errorf("journal: rename project %s: a name is required: %w", id, ErrInvalid)
	}
	if err := s.changeOne(ctx, "rename project "+id, "project", id, `UPDATE projects SET name = ? WHERE id = ?`, name, id); err != nil {
		return run.Project{}, err
	}
	return s.GetProject(ctx, id)
}

// MoveProject points a project at another folder (the person located the
// folder after it was moved); its sessions and runs stay with it.
func (s *Store) MoveProject(ctx context.Context, id, workspace string) (run.Project, error) {
	workspace = strings.TrimSpace(workspace)
	if workspace == "" {
		return run.Project{}, fmt.Errorf("journal: move project %s: a folder is required: %w", id, ErrInvalid)
	}
	if err := s.changeOne(ctx, "move project "+id, "project", id, `UPDATE projects SET workspace = ? WHERE id = ?`, workspace, id); err != nil {
		return run.Project{}, err
	}
	return s.GetProject(ctx, id)
}

// DeleteProject removes a project from the journal with its sessions (their
// messages, runs, events, search entries and schedules). Files in the
// project's folder are never touched. A project with an active run is
// refused (ErrConflict): stop it first.
func (s *Store) DeleteProject(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("delete project "+id, err)
	}
	defer tx.Rollback()
	var active int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM runs WHERE terminal = 0 AND session_id IN
		(SELECT id FROM sessions WHERE project_id = ?)`, id).Scan(&active); err != nil {
		return s.wrap("delete project "+id, err)
	}
	if active > 0 {
		return fmt.Errorf("journal: delete project %s: %w: it has %d active run(s)", id, ErrConflict, active)
	}
	inProject := `(SELECT id FROM search_docs WHERE session_id IN (SELECT id FROM sessions WHERE project_id = ?))`
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_fts WHERE rowid IN `+inProject, id); err != nil {
		return s.wrap("delete project "+id, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_docs WHERE session_id IN (SELECT id FROM sessions WHERE project_id = ?)`, id); err != nil {
		return s.wrap("delete project "+id, err)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM projects WHERE id = ?`, id)
	if err != nil {
		return s.wrap("delete project "+id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("journal: project %s: %w", id, ErrNotFound)
	}
	return s.wrap("delete project "+id, tx.Commit())
}

// configPatchSQL merges a configPatch into sessions.config in one
// statement (a JSON merge patch: null removes a key), so a person's choice
// between runs and one recorded by a run never overwrite each other.
const configPatchSQL = `config = json_patch(CASE WHEN config = '' THEN '{}' ELSE config END, ?)`

// configPatch is the JSON merge patch of choices: "" forgets a choice.
func configPatch(choices map[string]string) (string, error) {
	m := make(map[string]any, len(choices))
	for k, v := range choices {
		if v == "" {
			m[k] = nil
		} else {
			m[k] = v
		}
	}
	b, err := json.Marshal(m)
	return string(b), err
}

// AgentConfig is what a new session of the agent last reported on this
// machine (config.updated and model.updated with defaults): empty when
// none did (docs/ARCHITECTURE.md §Session config options).
func (s *Store) AgentConfig(ctx context.Context, agent string) (run.AgentDefaults, error) {
	var opts, models string
	var d run.AgentDefaults
	err := s.db.QueryRowContext(ctx, `SELECT options, model, models FROM agent_config WHERE agent = ?`, agent).Scan(&opts, &d.Model, &models)
	if errors.Is(err, sql.ErrNoRows) {
		return d, nil
	}
	if err != nil {
		return d, s.wrap("read agent settings", err)
	}
	// Written only by the deriver; a damaged value reads as none.
	if opts != "" && json.Unmarshal([]byte(opts), &d.Options) != nil {
		d.Options = nil
	}
	if models != "" && json.Unmarshal([]byte(models), &d.Models) != nil {
		d.Models = nil
	}
	return d, nil
}
