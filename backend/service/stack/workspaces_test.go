package stack

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// A session asked for in a worktree gets one, said on the watch bus;
// archive and restore go through the service; a project that is not a git
// repository is refused with the reason and no session is made.
func TestSessionInAWorktree(t *testing.T) {
	ctx := context.Background()
	st, p := gitProjectStack(t, t.TempDir())
	svc := st.Service
	repo := p.Workspace
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	bus, err := svc.Watch(wctx)
	if err != nil {
		t.Fatal(err)
	}
	ses, err := svc.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo", Workspace: "worktree"})
	if err != nil {
		t.Fatal(err)
	}
	if ses.WorkspaceID == "" {
		t.Fatal("the session has no workspace")
	}
	for m := range bus {
		if m.Type == run.WatchWorkspaceChanged && m.Workspace.ID == ses.WorkspaceID && m.Workspace.State == "ready" {
			break
		}
	}
	d, err := svc.Workspace(ctx, ses.WorkspaceID)
	if err != nil || d.Branch == "" || !strings.HasPrefix(d.Path, repo) || d.Base != "main" {
		t.Fatalf("%+v %v", d, err)
	}
	if got, _ := svc.Session(ctx, ses.ID); got.WorkspaceID != ses.WorkspaceID {
		t.Fatalf("session reads back in %q", got.WorkspaceID)
	}
	list, err := svc.Workspaces(ctx, p.ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("%+v %v", list, err)
	}
	if w, err := svc.ArchiveWorkspace(ctx, ses.WorkspaceID); err != nil || w.State != "archived" {
		t.Fatalf("archive: %+v %v", w, err)
	}
	if w, err := svc.RestoreWorkspace(ctx, ses.WorkspaceID); err != nil || w.State != "ready" {
		t.Fatalf("restore: %+v %v", w, err)
	}

	// A session that has not run moves to a new worktree, then back to
	// the checkout; one that has run is refused.
	fresh, err := svc.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"})
	if err != nil || fresh.WorkspaceID != "" {
		t.Fatalf("%+v %v", fresh, err)
	}
	moved, err := svc.MoveSession(ctx, fresh.ID, service.SessionWorkspaceRequest{Workspace: "worktree"})
	if err != nil || moved.WorkspaceID == "" || moved.WorkspaceID == ses.WorkspaceID {
		t.Fatalf("move to a worktree: %+v %v", moved, err)
	}
	if back, err := svc.MoveSession(ctx, fresh.ID, service.SessionWorkspaceRequest{Workspace: "checkout"}); err != nil || back.WorkspaceID != "" {
		t.Fatalf("move back: %+v %v", back, err)
	}
	if got, _ := svc.Session(ctx, fresh.ID); got.WorkspaceID != "" {
		t.Fatalf("reads back in %q", got.WorkspaceID)
	}
	if _, err := st.Journal.DB().ExecContext(ctx, `INSERT INTO runs (id, project_id, session_id, turn_id, user_message_id, assistant_message_id, status, terminal, created_at)
		VALUES ('run_x', ?, ?, 't', 'u', 'a', 'completed', 1, 1)`, p.ID, fresh.ID); err != nil {
		t.Fatal(err)
	}
	var se *service.Error
	if _, err := svc.MoveSession(ctx, fresh.ID, service.SessionWorkspaceRequest{Workspace: "worktree"}); !errors.As(err, &se) || se.Code != service.CodeConflict || !strings.Contains(se.Message, "already run") {
		t.Fatalf("a session that ran moved: %v", err)
	}

	plain, err := svc.CreateProject(ctx, service.CreateProjectRequest{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.CreateSession(ctx, service.CreateSessionRequest{ProjectID: plain.ID, Agent: "demo", Workspace: "worktree"})
	if !errors.As(err, &se) || se.Code != service.CodeConflict || !strings.Contains(se.Message, "not a git repository") {
		t.Fatalf("got %v", err)
	}
	if ss, _ := svc.Sessions(ctx, plain.ID); len(ss) != 0 {
		t.Fatalf("a session was made: %+v", ss)
	}
	_, err = svc.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo", Workspace: "elsewhere"})
	if !errors.As(err, &se) || se.Code != service.CodeBadRequest {
		t.Fatalf("got %v", err)
	}
}

// Setting workspaces.location "data" puts the next worktree under the
// data dir, not in the repository.
func TestWorktreeLocationSetting(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	st, p := gitProjectStack(t, dataDir)
	svc := st.Service
	repo := p.Workspace
	if _, err := svc.PutSettings(ctx, map[string]json.RawMessage{service.SettingWorktreeLocation: json.RawMessage(`"data"`)}); err != nil {
		t.Fatal(err)
	}
	w, err := svc.CreateWorkspace(ctx, p.ID, service.CreateWorkspaceRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(w.Path, filepath.Join(dataDir, "worktrees")+string(filepath.Separator)) {
		t.Fatalf("worktree at %s, want under the data dir %s", w.Path, dataDir)
	}
	if _, err := svc.PutSettings(ctx, map[string]json.RawMessage{service.SettingWorktreeLocation: json.RawMessage(`"repo"`)}); err != nil {
		t.Fatal(err)
	}
	w, err = svc.CreateWorkspace(ctx, p.ID, service.CreateWorkspaceRequest{})
	if err != nil || !strings.HasPrefix(w.Path, repo) {
		t.Fatalf("worktree at %s (%v), want in the repository %s", w.Path, err, repo)
	}
}

// gitProjectStack opens a stack on dataDir, closed with the test, with one
// project: a git repository on main with one commit.
func gitProjectStack(t *testing.T, dataDir string) (*Stack, run.Project) {
	t.Helper()
	st, err := Open(context.Background(), Options{DataDir: dataDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	repo := t.TempDir()
	gitcmdtest.Init(t, repo)
	p, err := st.Service.CreateProject(context.Background(), service.CreateProjectRequest{Workspace: repo})
	if err != nil {
		t.Fatal(err)
	}
	return st, p
}
