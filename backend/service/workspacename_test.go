package service_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/workspaces"
)

// listedWorkspaces knows the workspaces it was given; nothing else is used.
type listedWorkspaces struct {
	service.WorkspaceManager
	list []run.Workspace
}

func (l listedWorkspaces) Get(_ context.Context, id string) (run.Workspace, error) {
	for _, w := range l.list {
		if w.ID == id {
			return w, nil
		}
	}
	return run.Workspace{}, errors.New("no such workspace")
}

// The watch bus's run state names the worktree the run works in (its
// branch), which the tray's run line shows; a run in the checkout names
// none (docs/ARCHITECTURE.md §Workspaces).
func TestRunStateNamesItsWorkspace(t *testing.T) {
	s, m, home := busWorld(t, service.Options{})
	ctx := context.Background()
	s.SetWorkspaces(listedWorkspaces{list: []run.Workspace{
		{ID: "wsp_aaaaaaaaaaaaaaaa", ProjectID: home.ProjectID, Branch: "hermesdesk/aaaaaaaaaaaaaaaa", State: workspaces.StateReady},
		{ID: "wsp_bbbbbbbbbbbbbbbb", ProjectID: home.ProjectID, State: workspaces.StateReady},
	}})
	inTree, err := m.CreateSession(ctx, run.Session{ProjectID: home.ProjectID, Agent: "demo", Title: "in a tree", WorkspaceID: "wsp_aaaaaaaaaaaaaaaa"})
	if err != nil {
		t.Fatal(err)
	}
	noBranch, err := m.CreateSession(ctx, run.Session{ProjectID: home.ProjectID, Agent: "demo", Title: "no branch", WorkspaceID: "wsp_bbbbbbbbbbbbbbbb"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{home.ID: "", inTree.ID: "hermesdesk/aaaaaaaaaaaaaaaa", noBranch.ID: "bbbbbbbbbbbbbbbb"}
	for id := range want {
		if _, err := s.StartRun(ctx, run.StartRequest{SessionID: id, Message: "hi"}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := s.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Snapshot.Runs) != len(want) {
		t.Fatalf("%d runs in the snapshot, want %d", len(snap.Snapshot.Runs), len(want))
	}
	for _, r := range snap.Snapshot.Runs {
		if r.Workspace != want[r.SessionID] {
			t.Errorf("session %s: workspace %q, want %q", r.SessionID, r.Workspace, want[r.SessionID])
		}
	}
}
