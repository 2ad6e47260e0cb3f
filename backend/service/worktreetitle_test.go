package service_test

import (
	"context"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// titledWorkspaces records the title each new worktree is made for and
// puts sessions anywhere.
type titledWorkspaces struct {
	service.WorkspaceManager
	titles []string
}

func (w *titledWorkspaces) CreateWith(_ context.Context, projectID, base, title string, _ func(context.Context, run.Workspace) error) (run.Workspace, error) {
	w.titles = append(w.titles, title)
	return run.Workspace{ID: "wsp_aaaaaaaaaaaaaaaa", ProjectID: projectID, Kind: "worktree", State: "ready"}, nil
}
func (*titledWorkspaces) Assign(context.Context, string, string) error { return nil }

// A session's new worktree is named after the session's title, whether
// the session is made in it or moved to it before its first run
// (docs/ARCHITECTURE.md §Workspaces, "Names").
func TestANewWorktreeIsMadeForTheSessionsTitle(t *testing.T) {
	s, _, home := busWorld(t, service.Options{})
	ctx := context.Background()
	ws := &titledWorkspaces{}
	s.SetWorkspaces(ws)
	if _, err := s.CreateSession(ctx, service.CreateSessionRequest{ProjectID: home.ProjectID, Agent: "demo", Title: "Fix the login bug", Workspace: "worktree"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MoveSession(ctx, home.ID, service.SessionWorkspaceRequest{Workspace: "worktree"}); err != nil {
		t.Fatal(err)
	}
	if len(ws.titles) != 2 || ws.titles[0] != "Fix the login bug" || ws.titles[1] != home.Title {
		t.Fatalf("worktrees made for titles %q, want the new session's and %q", ws.titles, home.Title)
	}
}
