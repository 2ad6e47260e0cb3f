package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// workspacesSQL is migration 10: the workspaces a project's sessions work
// in, and each session's (docs/ARCHITECTURE.md §Workspaces). A session
// whose workspace_id is empty works in the project's checkout.
const workspacesSQL = `
CREATE TABLE workspaces (
	id           TEXT PRIMARY KEY,
	project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	kind         TEXT NOT NULL,
	state        TEXT NOT NULL,
	path         TEXT NOT NULL,
	branch       TEXT NOT NULL DEFAULT '',
	base         TEXT NOT NULL DEFAULT '',
	base_commit  TEXT NOT NULL DEFAULT '',
	port         INTEGER NOT NULL DEFAULT 0,
	setup_source TEXT NOT NULL DEFAULT '',
	setup_status TEXT NOT NULL DEFAULT '',
	setup_output TEXT NOT NULL DEFAULT '',
	note         TEXT NOT NULL DEFAULT '',
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL,
	archived_at  INTEGER
);
CREATE INDEX workspaces_by_project ON workspaces(project_id, created_at);
ALTER TABLE sessions ADD COLUMN workspace_id TEXT NOT NULL DEFAULT '';
`

const workspaceCols = `id, project_id, kind, state, path, branch, base, base_commit, port,
	setup_source, setup_status, setup_output, note, created_at, updated_at, archived_at`

func scanWorkspace(sc interface{ Scan(...any) error }) (run.Workspace, error) {
	var w run.Workspace
	var c, u int64
	var a sql.NullInt64
	err := sc.Scan(&w.ID, &w.ProjectID, &w.Kind, &w.State, &w.Path, &w.Branch, &w.Base, &w.BaseCommit, &w.Port,
		&w.SetupSource, &w.SetupStatus, &w.SetupOutput, &w.Note, &c, &u, &a)
	w.CreatedAt, w.UpdatedAt = fromNanos(c), fromNanos(u)
	if a.Valid {
		t := fromNanos(a.Int64)
		w.ArchivedAt = &t
	}
	return w, err
}

// CreateWorkspace records a workspace (a worktree's claim, before git
// makes anything). A second record with the same id is ErrConflict.
func (s *Store) CreateWorkspace(ctx context.Context, w run.Workspace) (run.Workspace, error) {
	if w.ID == "" || w.ProjectID == "" || strings.TrimSpace(w.Path) == "" {
		return run.Workspace{}, fmt.Errorf("journal: create workspace: id, project and path are required: %w", ErrInvalid)
	}
	at := nowNanos()
	res, err := s.db.ExecContext(ctx, `INSERT INTO workspaces (id, project_id, kind, state, path, branch, base, base_commit, port,
		setup_source, setup_status, setup_output, note, created_at, updated_at)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM projects WHERE id = ?)`,
		w.ID, w.ProjectID, w.Kind, w.State, w.Path, w.Branch, w.Base, w.BaseCommit, w.Port,
		w.SetupSource, w.SetupStatus, w.SetupOutput, w.Note, at, at, w.ProjectID)
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return run.Workspace{}, fmt.Errorf("journal: create workspace %s: %w: id exists", w.ID, ErrConflict)
		}
		return run.Workspace{}, s.wrap("create workspace", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return run.Workspace{}, fmt.Errorf("journal: create workspace: project %s: %w", w.ProjectID, ErrNotFound)
	}
	return s.GetWorkspace(ctx, w.ID)
}

// GetWorkspace returns one workspace or ErrNotFound.
func (s *Store) GetWorkspace(ctx context.Context, id string) (run.Workspace, error) {
	return oneOf(ctx, s, "workspace", id, scanWorkspace, `SELECT `+workspaceCols+` FROM workspaces WHERE id = ?`)
}

// ListWorkspaces returns a project's workspaces ("" = every project's),
// oldest first.
func (s *Store) ListWorkspaces(ctx context.Context, projectID string) ([]run.Workspace, error) {
	return listOf(ctx, s, "list workspaces", scanWorkspace, `SELECT `+workspaceCols+` FROM workspaces
		WHERE ? = '' OR project_id = ? ORDER BY created_at, id`, projectID, projectID)
}

// UpdateWorkspace writes w's changing fields (state, path, branch, base,
// port, setup, note, archived_at) and moves updated_at.
func (s *Store) UpdateWorkspace(ctx context.Context, w run.Workspace) (run.Workspace, error) {
	var archived any
	if w.ArchivedAt != nil {
		archived = w.ArchivedAt.UnixNano()
	}
	res, err := s.db.ExecContext(ctx, `UPDATE workspaces SET state = ?, path = ?, branch = ?, base = ?, base_commit = ?, port = ?,
		setup_source = ?, setup_status = ?, setup_output = ?, note = ?, archived_at = ?, updated_at = ? WHERE id = ?`,
		w.State, w.Path, w.Branch, w.Base, w.BaseCommit, w.Port, w.SetupSource, w.SetupStatus, w.SetupOutput, w.Note,
		archived, time.Now().UnixNano(), w.ID)
	if err != nil {
		return run.Workspace{}, s.wrap("update workspace "+w.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return run.Workspace{}, fmt.Errorf("journal: workspace %s: %w", w.ID, ErrNotFound)
	}
	return s.GetWorkspace(ctx, w.ID)
}

// SetSessionWorkspace puts a session in a workspace ("" = the project's
// checkout). The workspace must belong to the session's project.
func (s *Store) SetSessionWorkspace(ctx context.Context, sessionID, workspaceID string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE sessions SET workspace_id = ? WHERE id = ?
		AND (? = '' OR EXISTS (SELECT 1 FROM workspaces w WHERE w.id = ? AND w.project_id = sessions.project_id))`,
		workspaceID, sessionID, workspaceID, workspaceID)
	if err != nil {
		return s.wrap("set session workspace", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("journal: session %s or its workspace %s: %w", sessionID, workspaceID, ErrNotFound)
	}
	return nil
}

// SessionWorkspace returns the id of a session's workspace ("" = the
// project's checkout).
func (s *Store) SessionWorkspace(ctx context.Context, sessionID string) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT workspace_id FROM sessions WHERE id = ?`, sessionID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("journal: session %s: %w", sessionID, ErrNotFound)
	}
	return id, s.wrap("session workspace", err)
}

// WorkspaceRunLive reports whether a session in the workspace has a run
// that has not ended.
func (s *Store) WorkspaceRunLive(ctx context.Context, workspaceID string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM runs r JOIN sessions se ON se.id = r.session_id
		WHERE se.workspace_id = ? AND r.terminal = 0`, workspaceID).Scan(&n)
	return n > 0, s.wrap("workspace runs", err)
}
