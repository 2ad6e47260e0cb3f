package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Renaming and removing projects, and noticing a project whose folder is
// gone (docs/ARCHITECTURE.md §API, §The watch bus).

// ProjectPatch is PATCH /api/projects/{id}: a new name, or the folder the
// person located after the project's folder was moved ("Locate…").
type ProjectPatch struct {
	Name      *string `json:"name,omitempty"`
	Workspace *string `json:"workspace,omitempty"`
}

// UpdateProject renames a project, or points it at the folder the person
// located (its sessions and runs stay; the files are never touched).
func (s *Service) UpdateProject(ctx context.Context, id string, p ProjectPatch) (run.Project, error) {
	if p.Workspace != nil {
		if _, err := s.moveProject(ctx, id, *p.Workspace); err != nil {
			return run.Project{}, err
		}
	}
	if p.Name == nil {
		return s.Project(ctx, id)
	}
	name := strings.TrimSpace(*p.Name)
	if name == "" {
		return run.Project{}, badRequest("a project needs a name")
	}
	if len(name) > MaxNameBytes || !utf8.ValidString(name) || strings.ContainsAny(name, "\n\r\x00") {
		return run.Project{}, badRequest("name must be one line of text of at most %d bytes", MaxNameBytes)
	}
	pr, err := s.store.RenameProject(ctx, id, name)
	if err != nil {
		return run.Project{}, s.classify(ctx, "rename project", "project", err)
	}
	s.sessionChanged(run.ProjectChanged, "", id)
	return pr, nil
}

// Project returns one project, flagged if its folder is gone.
func (s *Service) Project(ctx context.Context, id string) (run.Project, error) {
	p, err := s.store.GetProject(ctx, id)
	if err != nil {
		return run.Project{}, s.classify(ctx, "get project", "project", err)
	}
	ps := []run.Project{p}
	s.flagMissing(ctx, ps)
	return ps[0], nil
}

// DeleteProject removes a project and its sessions (with their messages,
// runs and schedules) from Hermes Desk. Files in the project's folder are
// never touched. A project with a running agent is a conflict: deleting
// must never orphan a running agent.
func (s *Service) DeleteProject(ctx context.Context, id string) error {
	if _, err := s.store.GetProject(ctx, id); err != nil {
		return s.classify(ctx, "get project", "project", err)
	}
	active, err := s.store.ListRuns(ctx, run.RunFilter{Active: true, ProjectID: id})
	if err != nil {
		return s.classify(ctx, "list runs", "project", err)
	}
	if len(active) > 0 {
		return &Error{Code: CodeConflict, Message: "a session of this project has a running agent; stop it first"}
	}
	ses, err := s.store.ListSessions(ctx, id)
	if err != nil {
		return s.classify(ctx, "list sessions", "project", err)
	}
	if err := s.store.DeleteProject(ctx, id); err != nil {
		return s.classify(ctx, "delete project", "project", err)
	}
	s.retireSessions(ctx, ses)
	s.missingRetired.Delete(id)
	s.sessionChanged(run.ProjectChanged, "", id)
	return nil
}

// moveProject points a project at an existing folder no other project has
// (one project per folder, as CreateProject keeps).
func (s *Service) moveProject(ctx context.Context, id, workspace string) (run.Project, error) {
	ws, err := checkWorkspace(workspace)
	if err != nil {
		return run.Project{}, err
	}
	existing, err := s.store.ListProjects(ctx)
	if err != nil {
		return run.Project{}, s.classify(ctx, "list projects", "project", err)
	}
	for _, o := range existing {
		if o.ID != id && filepath.Clean(o.Workspace) == ws {
			return run.Project{}, &Error{Code: CodeConflict, Message: fmt.Sprintf("that folder is already the project %q", o.Name)}
		}
	}
	pr, err := s.store.MoveProject(ctx, id, ws)
	if err != nil {
		return run.Project{}, s.classify(ctx, "move project", "project", err)
	}
	s.missingRetired.Delete(id)
	s.sessionChanged(run.ProjectChanged, "", id)
	return pr, nil
}

// flagMissing marks projects whose folder is gone. The first time a
// project is found so, its sessions' warm agents are retired: they run in
// a folder that no longer exists and could only fail.
func (s *Service) flagMissing(ctx context.Context, ps []run.Project) {
	for i := range ps {
		if ps[i].Workspace == "" {
			continue // the Imported place has no folder to miss
		}
		st, err := os.Stat(ps[i].Workspace)
		ps[i].FolderMissing = err != nil && os.IsNotExist(err) || err == nil && !st.IsDir()
		if !ps[i].FolderMissing {
			s.missingRetired.Delete(ps[i].ID)
			continue
		}
		if _, done := s.missingRetired.LoadOrStore(ps[i].ID, true); done {
			continue
		}
		s.log.Info("project folder is missing", "project", ps[i].ID, "workspace", ps[i].Workspace)
		if ses, err := s.store.ListSessions(ctx, ps[i].ID); err == nil {
			s.retireSessions(ctx, ses)
		}
	}
}

func (s *Service) retireSessions(ctx context.Context, ses []run.Session) {
	for _, x := range ses {
		s.runner.RetireWarmSession(ctx, x.ID)
	}
}
