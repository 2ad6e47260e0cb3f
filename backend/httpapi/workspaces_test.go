package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/workspaces"
)

// fakeWorkspaces refuses archive with a sentence and answers the rest.
type fakeWorkspaces struct{}

func (fakeWorkspaces) Create(_ context.Context, projectID, base string) (run.Workspace, error) {
	return run.Workspace{ID: "wsp_new", ProjectID: projectID, Kind: "worktree", State: "ready", Base: base}, nil
}
func (f fakeWorkspaces) CreateWith(ctx context.Context, projectID, base, _ string, _ func(context.Context, run.Workspace) error) (run.Workspace, error) {
	return f.Create(ctx, projectID, base)
}
func (fakeWorkspaces) Get(_ context.Context, id string) (run.Workspace, error) {
	return run.Workspace{ID: id}, nil
}
func (fakeWorkspaces) List(context.Context, string) ([]run.Workspace, error) { return nil, nil }
func (fakeWorkspaces) Detail(_ context.Context, id string) (workspaces.Detail, error) {
	return workspaces.Detail{Workspace: run.Workspace{ID: id}, Status: workspaces.Status{Changed: 3}}, nil
}
func (fakeWorkspaces) Check(_ context.Context, id string) (run.Workspace, error) {
	return run.Workspace{ID: id}, nil
}
func (fakeWorkspaces) Archive(context.Context, string) (run.Workspace, error) {
	return run.Workspace{}, fmt.Errorf("wrapped: %w", workspaces.CanArchive("wsp_a", workspaces.TreeFacts{RunLive: true}))
}
func (fakeWorkspaces) Restore(_ context.Context, id string) (run.Workspace, error) {
	return run.Workspace{ID: id, State: "ready"}, nil
}
func (fakeWorkspaces) Assign(context.Context, string, string) error { return nil }

func TestWorkspaceRoutes(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	code, body := e.do(t, "GET", "/api/workspaces/wsp_a", "", nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "workspaces are not available") {
		t.Fatalf("without workspaces: %d %s", code, body)
	}
	e.svc.SetWorkspaces(fakeWorkspaces{})
	p, err := e.mem.CreateProject(context.Background(), "p", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"GET", "/api/projects/" + p.ID + "/workspaces", "", 200, "[]"},
		{"POST", "/api/projects/" + p.ID + "/workspaces", `{"base":"dev"}`, 201, `"base":"dev"`},
		{"POST", "/api/projects/" + p.ID + "/workspaces", "", 201, `"id":"wsp_new"`},
		{"GET", "/api/projects/prj_none/workspaces", "", 404, "not_found"},
		{"GET", "/api/workspaces/wsp_a", "", 200, `"changed":3`},
		{"POST", "/api/workspaces/wsp_a/archive", "", 409, `"message":"a run is still working in this workspace; stop it or wait for it to end"`},
		{"POST", "/api/workspaces/wsp_a/restore", "", 200, `"state":"ready"`},
	} {
		code, body := e.do(t, tc.method, tc.path, tc.body, nil)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s %s: %d %s, want %d with %s", tc.method, tc.path, code, body, tc.code, tc.want)
		}
	}
}
