package service

import (
	"context"
	"errors"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/workspaces"
)

// WorkspaceManager is backend/workspaces' Manager as the service uses it
// (docs/ARCHITECTURE.md §Workspaces).
type WorkspaceManager interface {
	Create(ctx context.Context, projectID, base string) (run.Workspace, error)
	// CreateWith names the branch after title (the first session's) and
	// runs prepare on the new worktree before its setup step.
	CreateWith(ctx context.Context, projectID, base, title string, prepare func(context.Context, run.Workspace) error) (run.Workspace, error)
	List(ctx context.Context, projectID string) ([]run.Workspace, error)
	// Get is one workspace as recorded (no git run: the watch bus asks
	// for a run's worktree name on every run it learns).
	Get(ctx context.Context, id string) (run.Workspace, error)
	Detail(ctx context.Context, id string) (workspaces.Detail, error)
	Check(ctx context.Context, id string) (run.Workspace, error)
	Archive(ctx context.Context, id string) (run.Workspace, error)
	Restore(ctx context.Context, id string) (run.Workspace, error)
	Assign(ctx context.Context, sessionID, workspaceID string) error
}

// SetWorkspaces connects the workspaces (the stack does); without it the
// workspace routes are unavailable and every session works in its
// project's checkout.
func (s *Service) SetWorkspaces(m WorkspaceManager) { s.ws = m }

// WorkspaceChanged publishes workspace.changed on the watch bus: the
// manager calls it for every workspace it writes.
func (s *Service) WorkspaceChanged(w run.Workspace) {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	b.publishLocked(run.WatchMessage{Type: run.WatchWorkspaceChanged, Workspace: &w})
}

var errNoWorkspaces = &Error{Code: CodeUnavailable, Message: "workspaces are not available here"}

// wsError gives a workspace refusal its own sentence (why, what to do)
// rather than a class's default message.
func (s *Service) wsError(ctx context.Context, op string, err error) error {
	if workspaces.IsRefused(err) {
		s.log.Info("service: "+op+" refused", "err", err)
		return &Error{Code: CodeConflict, Message: workspaces.Reason(err), Err: err}
	}
	return s.classify(ctx, op, "workspace", err)
}

// Workspaces lists a project's workspaces, oldest first.
func (s *Service) Workspaces(ctx context.Context, projectID string) ([]run.Workspace, error) {
	if s.ws == nil {
		return nil, errNoWorkspaces
	}
	if _, err := s.store.GetProject(ctx, projectID); err != nil {
		return nil, s.classify(ctx, "get project", "project", err)
	}
	list, err := s.ws.List(ctx, projectID)
	if list == nil {
		list = []run.Workspace{}
	}
	return list, s.wsError(ctx, "list workspaces", err)
}

// CreateWorkspaceRequest is POST /api/projects/{id}/workspaces.
type CreateWorkspaceRequest struct {
	// Base is the branch (or commit) to start from; "" takes the
	// checkout's current branch.
	Base string `json:"base,omitempty"`
}

// CreateWorkspace makes a worktree of the project.
func (s *Service) CreateWorkspace(ctx context.Context, projectID string, req CreateWorkspaceRequest) (run.Workspace, error) {
	if s.ws == nil {
		return run.Workspace{}, errNoWorkspaces
	}
	if err := s.checkRunnableProject(ctx, projectID); err != nil {
		return run.Workspace{}, err
	}
	w, err := s.ws.Create(ctx, projectID, req.Base)
	return w, s.wsError(ctx, "create workspace", err)
}

// Workspace is one workspace at a glance.
func (s *Service) Workspace(ctx context.Context, id string) (workspaces.Detail, error) {
	if s.ws == nil {
		return workspaces.Detail{}, errNoWorkspaces
	}
	d, err := s.ws.Detail(ctx, id)
	return d, s.wsError(ctx, "get workspace", err)
}

// ArchiveWorkspace snapshots and removes a worktree (branch kept).
func (s *Service) ArchiveWorkspace(ctx context.Context, id string) (run.Workspace, error) {
	if s.ws == nil {
		return run.Workspace{}, errNoWorkspaces
	}
	w, err := s.ws.Archive(ctx, id)
	return w, s.wsError(ctx, "archive workspace", err)
}

// RestoreWorkspace brings an archived worktree back.
func (s *Service) RestoreWorkspace(ctx context.Context, id string) (run.Workspace, error) {
	if s.ws == nil {
		return run.Workspace{}, errNoWorkspaces
	}
	w, err := s.ws.Restore(ctx, id)
	return w, s.wsError(ctx, "restore workspace", err)
}

// sessionWorkspace settles a new session's workspace before the session
// is made: a new worktree (refused with the reason, no session made), an
// existing workspace of the project, or "" for the checkout.
func (s *Service) sessionWorkspace(ctx context.Context, req CreateSessionRequest) (string, error) {
	switch {
	case req.WorkspaceID != "" && req.Workspace != "":
		return "", badRequest("give either workspace or workspace_id, not both")
	case req.Workspace == "" || req.Workspace == workspaces.KindCheckout:
		if req.Base != "" && req.WorkspaceID == "" {
			return "", badRequest("base is for a new worktree (workspace: \"worktree\")")
		}
		return req.WorkspaceID, nil
	case req.Workspace != workspaces.KindWorktree:
		return "", badRequest("workspace must be \"checkout\" or \"worktree\"")
	}
	if s.ws == nil {
		return "", errNoWorkspaces
	}
	w, err := s.ws.CreateWith(ctx, req.ProjectID, req.Base, req.Title, nil)
	if err != nil {
		return "", s.wsError(ctx, "create workspace", err)
	}
	return w.ID, nil
}

// assignWorkspace puts a just-made session in its workspace; on a refusal
// the session goes again, so no session is left silently in the checkout.
func (s *Service) assignWorkspace(ctx context.Context, ses *run.Session, workspaceID string) error {
	if workspaceID == "" {
		return nil
	}
	if s.ws == nil {
		return errNoWorkspaces
	}
	if err := s.ws.Assign(ctx, ses.ID, workspaceID); err != nil {
		if derr := s.store.DeleteSession(context.WithoutCancel(ctx), ses.ID); derr != nil {
			err = errors.Join(err, derr)
		}
		return s.wsError(ctx, "put the session in its workspace", err)
	}
	ses.WorkspaceID = workspaceID
	return nil
}

// checkSessionWorkspace notices, when a session is opened, that its
// worktree was deleted, moved or re-locked outside the app: the note is
// written and workspace.changed published (the manager's Changed).
func (s *Service) checkSessionWorkspace(ctx context.Context, ses run.Session) {
	if s.ws == nil || ses.WorkspaceID == "" {
		return
	}
	if _, err := s.ws.Check(ctx, ses.WorkspaceID); err != nil {
		s.log.Info("service: the session's workspace could not be checked", "session", ses.ID, "err", err)
	}
}

// SessionWorkspaceRequest is POST /api/sessions/{id}/workspace: where a
// session that has not run yet works from now on — a new worktree
// (workspace "worktree", from Base), an existing workspace of its project
// (WorkspaceID), or the checkout (workspace "checkout").
type SessionWorkspaceRequest struct {
	Workspace   string `json:"workspace,omitempty"`
	Base        string `json:"base,omitempty"`
	WorkspaceID string `json:"workspace_id,omitempty"`
}

// MoveSession puts a session that has not run yet in another workspace
// (DESIGN §13.2: "a session can be moved to a new worktree before its
// first run"). Once an agent has worked somewhere its conversation is
// about those files, so a session with runs is refused.
func (s *Service) MoveSession(ctx context.Context, id string, req SessionWorkspaceRequest) (run.Session, error) {
	if s.ws == nil {
		return run.Session{}, errNoWorkspaces
	}
	ses, err := s.store.GetSession(ctx, id)
	if err != nil {
		return run.Session{}, s.classify(ctx, "get session", "session", err)
	}
	if ses.LastRunStatus != "" {
		return run.Session{}, &Error{Code: CodeConflict, Message: "this session has already run in its workspace; start a new session to work elsewhere"}
	}
	if req.Workspace == "" && req.WorkspaceID == "" {
		return run.Session{}, badRequest("say where: workspace \"checkout\" or \"worktree\", or a workspace_id")
	}
	wsID, err := s.sessionWorkspace(ctx, CreateSessionRequest{ProjectID: ses.ProjectID, Title: ses.Title, Workspace: req.Workspace, Base: req.Base, WorkspaceID: req.WorkspaceID})
	if err != nil {
		return run.Session{}, err
	}
	if err := s.ws.Assign(ctx, ses.ID, wsID); err != nil {
		return run.Session{}, s.wsError(ctx, "move session", err)
	}
	ses.WorkspaceID = wsID
	s.sessionChanged(run.SessionUpdated, ses.ID, ses.ProjectID)
	return ses, nil
}

// workspaceName is how a run line names the session's worktree (its
// branch, else its slug); "" in the project's checkout, or when the
// workspace cannot be read (the line then just does not say it).
func (s *Service) workspaceName(ctx context.Context, ses run.Session) string {
	if ses.WorkspaceID == "" || s.ws == nil {
		return ""
	}
	w, err := s.ws.Get(ctx, ses.WorkspaceID)
	if err != nil {
		s.log.Debug("workspaces: name for a run line", "session", ses.ID, "err", err)
		return ""
	}
	if w.Branch != "" {
		return w.Branch
	}
	slug, _ := workspaces.Slug(w.ID)
	return slug
}
