package httpapi_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// realWorktree is fakeWorkspaces whose workspace is a real worktree of a
// real repository.
type realWorktree struct {
	fakeWorkspaces
	w run.Workspace
}

func (f realWorktree) Check(context.Context, string) (run.Workspace, error) { return f.w, nil }
func (f realWorktree) Get(context.Context, string) (run.Workspace, error)   { return f.w, nil }

func TestMergeRoutes(t *testing.T) {
	root := t.TempDir()
	top := filepath.Join(root, "repo")
	gitcmdtest.Git(t, root, "init", "-q", "-b", "main", top)
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(top, "a.txt"), "a\n")
	write(filepath.Join(top, "b.txt"), "b\n")
	gitcmdtest.Git(t, top, "add", "-A")
	gitcmdtest.Git(t, top, "commit", "-q", "-m", "first")
	wt := filepath.Join(root, "wt")
	gitcmdtest.Git(t, top, "worktree", "add", "-q", "-b", "hermesdesk/x", wt, "main")
	write(filepath.Join(wt, "a.txt"), "a from the workspace\n")

	e := newEnv(t, httpapi.Config{})
	e.svc.SetWorkspaces(realWorktree{w: run.Workspace{ID: "wsp_x", ProjectID: "prj_x", Kind: "worktree", State: "ready",
		Path: wt, Branch: "hermesdesk/x", Base: "main"}})
	write(filepath.Join(top, "a.txt"), "the person's edit\n")
	for _, tc := range []struct {
		path, body string
		code       int
		want       string
	}{
		{"/api/workspaces/wsp_x/merge/preview", "", 200, `"files":["a.txt"]`},
		{"/api/workspaces/wsp_x/merge/preview", `{"strategy":"octopus"}`, 400, "not one of squash, merge or rebase"},
		{"/api/workspaces/wsp_x/merge", `{"strategy":"squash"}`, 409, `"message":"main has uncommitted changes the merge would overwrite in a.txt; commit or stash them, then merge"`},
		{"/api/workspaces/wsp_x/merge/resolve", "", 409, "nothing conflicts with main"},
		{"/api/workspaces/wsp_x/push", "", 409, "no remote to push to"},
	} {
		code, body := e.do(t, "POST", tc.path, tc.body, nil)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s %s: %d %s, want %d with %s", tc.path, tc.body, code, body, tc.code, tc.want)
		}
	}
	gitcmdtest.Git(t, top, "checkout", "--", "a.txt")
	code, body := e.do(t, "POST", "/api/workspaces/wsp_x/merge", `{"message":"From the workspace"}`, nil)
	if code != 200 || !strings.Contains(body, `"backup":"refs/hermesdesk/backup/wsp_x/`) || !strings.Contains(body, `"offer_archive":true`) {
		t.Fatalf("merge: %d %s", code, body)
	}
	if got := gitcmdtest.Git(t, top, "log", "-1", "--format=%s", "main"); got != "From the workspace\n" {
		t.Errorf("the base's log: %q", got)
	}
}
