package supervisor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
	"github.com/hermesdesk/hermesdesk/backend/workspaces"
)

// Two sessions in two worktrees of one repository run at once: each run
// works in its own worktree and its diff holds only its own change
// (docs/ARCHITECTURE.md §Workspaces).
func TestSessionsInWorktreesRunApart(t *testing.T) {
	var m *workspaces.Manager
	e := newEnv(t, func(c *supervisor.Config) {
		c.Workspace = func(ctx context.Context, ses run.Session) (string, []string, error) { return m.ForSession(ctx, ses) }
	})
	ctx := context.Background()
	p, err := e.store.GetProject(ctx, e.session.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	gitcmdtest.Init(t, p.Workspace)
	m = workspaces.New(e.store, nil, nil)
	m.NoSetup = true
	sessions := []run.Session{e.session, e.newSession()}
	var wss []run.Workspace
	for _, ses := range sessions {
		w, err := m.Create(ctx, p.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := e.store.SetSessionWorkspace(ctx, ses.ID, w.ID); err != nil {
			t.Fatal(err)
		}
		wss = append(wss, w)
	}
	var runs []string
	for _, ses := range sessions {
		runs = append(runs, e.start(ses.ID, "/scenario tool").RunID)
	}
	for i, id := range runs {
		if r := e.waitTerminal(id); r.Status != run.StatusCompleted {
			t.Fatalf("run %d: %s %s\n%s", i, r.Status, r.Error, e.logTail(id))
		}
		var started run.RunStarted
		var changed []string
		for _, ev := range e.events(id) {
			switch ev.Type {
			case run.EventRunStarted:
				json.Unmarshal(ev.Payload, &started)
			case run.EventFileChanged:
				var fc run.FileChanged
				json.Unmarshal(ev.Payload, &fc)
				if fc.Source == run.SourceWorkspace {
					changed = append(changed, fc.Path+" "+fc.Action)
				}
			}
		}
		if started.Workspace != wss[i].Path {
			t.Errorf("run %d worked in %q, want its worktree %q", i, started.Workspace, wss[i].Path)
		}
		if got := strings.Join(changed, ","); got != "hello.txt created" {
			t.Errorf("run %d's diff: %q, want only its own hello.txt", i, got)
		}
		if _, err := os.Stat(filepath.Join(wss[i].Path, "hello.txt")); err != nil {
			t.Errorf("run %d wrote no hello.txt in its worktree: %v", i, err)
		}
	}
	if _, err := os.Stat(filepath.Join(p.Workspace, "hello.txt")); err == nil {
		t.Error("a run wrote into the main checkout")
	}

	// The agent's shells get the workspace's variables.
	id := e.start(sessions[1].ID, "/scenario workspace-env").RunID
	if r := e.waitTerminal(id); r.Status != run.StatusCompleted {
		t.Fatalf("env run: %s %s", r.Status, r.Error)
	}
	var said string
	for _, ev := range e.events(id) {
		if ev.Type == run.EventToolDone {
			said += string(ev.Payload)
		}
	}
	name := strings.TrimPrefix(wss[1].ID, "wsp_")
	want := fmt.Sprintf("path=%s name=%s base=main port=%d", wss[1].Path, name, wss[1].Port)
	if wss[1].Port == 0 || !strings.Contains(said, want) {
		t.Fatalf("the terminal said %s\nwant %q", said, want)
	}
}
