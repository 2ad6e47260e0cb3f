package stack

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// The stack runs the radar: two worktrees that both create server.go with
// a different second line are found by the start-up pass, on the bus and
// at the route.
func TestRadarInTheStack(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	repo := t.TempDir()
	gitcmdtest.Init(t, repo)
	os.WriteFile(filepath.Join(repo, "server.go"), []byte("one\ntwo\nthree\n"), 0o644)
	st, err := Open(ctx, Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	p, err := st.Service.CreateProject(ctx, service.CreateProjectRequest{Workspace: repo})
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"a", "b"} {
		ses, err := st.Service.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo", Workspace: "worktree"})
		if err != nil {
			t.Fatal(err)
		}
		d, err := st.Service.Workspace(ctx, ses.WorkspaceID)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d.Workspace.Path, "server.go"), []byte("one\ntwo by "+who+"\nthree\n"), 0o644)
	}
	st.workspaces.Wait()
	st.Close()

	st, err = Open(ctx, Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	bus, err := st.Service.Watch(wctx)
	if err != nil {
		t.Fatal(err)
	}
	var got *run.Conflicts
	for m := range bus {
		if m.Type == run.WatchSnapshotType && len(m.Snapshot.Conflicts) == 1 {
			got = &m.Snapshot.Conflicts[0]
		}
		if m.Type == run.WatchConflictsChanged {
			got = m.Conflicts
		}
		if got != nil {
			break
		}
	}
	if got.ProjectID != p.ID || len(got.Overlaps) != 1 || got.Overlaps[0].Files[0].Path != "server.go" ||
		len(got.Overlaps[0].Files[0].Hunks) != 1 || got.Lines[0] != "2 workspaces change server.go" {
		t.Fatalf("the radar found %+v", got)
	}
	c, err := st.Service.Conflicts(ctx, p.ID)
	if err != nil || len(c.Order) != 2 || len(c.Overlaps) != 1 {
		t.Fatalf("the route answers %+v, %v", c, err)
	}
}
