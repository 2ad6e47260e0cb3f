package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/merge"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// A demo run in a worktree, merged home from the CLI: the preview names
// its file, the squash lands on main with the session's title, the branch
// is pushed to a local bare remote, and without gh a pull request is
// refused with the sentence (docs/ARCHITECTURE.md §Merge).
func TestEndToEndMergeAWorktree(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	repo, bare := t.TempDir(), filepath.Join(t.TempDir(), "remote.git")
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(repo, "init", "-q", "-b", "main")
	git(repo, "commit", "-q", "--allow-empty", "-m", "first")
	git(repo, "init", "-q", "--bare", bare)
	git(repo, "remote", "add", "origin", bare)

	e, out, errOut := cliEnv(dataDir, nil)
	if code := e.Ask([]string{"--agent", "demo", "--project", repo, "--worktree", "/scenario tool"}); code != 0 {
		t.Fatalf("ask: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	e, out, _ = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"ls", "--project", repo}); code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	id := strings.Fields(lines[1])[0]

	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"merge", id, "--preview"}); code != 0 || !strings.Contains(out.String(), "clean, 1 files change.\n  hello.txt") {
		t.Fatalf("preview: %d\n%s%s", code, out.String(), errOut.String())
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"merge", id, "--strategy", "octopus"}); code != exitFail || !strings.Contains(errOut.String(), "not one of squash, merge or rebase") {
		t.Fatalf("octopus: %d\n%s%s", code, out.String(), errOut.String())
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"merge", id, "--message", "Hello from the workspace"}); code != 0 || !strings.Contains(out.String(), "refs/hermesdesk/backup/"+id+"/") {
		t.Fatalf("merge: %d\n%s%s", code, out.String(), errOut.String())
	}
	if got := git(repo, "log", "--format=%s", "main"); got != "Hello from the workspace\nfirst" {
		t.Errorf("main's log: %q", got)
	}
	if data, err := os.ReadFile(filepath.Join(repo, "hello.txt")); err != nil || string(data) != "hello from the demo agent\n" {
		t.Errorf("the checkout's hello.txt: %q %v", data, err)
	}
	if st := git(repo, "status", "--porcelain"); st != "" {
		t.Errorf("the checkout is not clean: %q", st)
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"merge", id}); code != exitFail || !strings.Contains(errOut.String(), "holds nothing that main does not already have") {
		t.Fatalf("merge twice: %d\n%s%s", code, out.String(), errOut.String())
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"push", id}); code != 0 || !strings.Contains(out.String(), "to origin") {
		t.Fatalf("push: %d\n%s%s", code, out.String(), errOut.String())
	}
	if git(bare, "for-each-ref", "--format=%(refname)") == "" {
		t.Error("nothing reached the remote")
	}
	if _, err := exec.LookPath("gh"); err == nil {
		t.Log("gh is installed: the refusal without it is not checked here (merge's TestPullRequestWithoutGH is)")
		return
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"push", id, "--pr"}); code != exitFail || !strings.Contains(errOut.String(), "GitHub CLI (gh) is not installed") {
		t.Fatalf("push --pr: %d\n%s%s", code, out.String(), errOut.String())
	}
}

// A conflicting preview handed to the agent: POST …/merge/resolve starts a
// run in the workspace's session whose message names the file and git's
// words; when it ends the preview can be asked again.
func TestEndToEndResolveWithTheAgent(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "hello.txt"), []byte("the first hello\n"), 0o644)
	git("add", "hello.txt")
	git("commit", "-q", "-m", "first")
	e, out, errOut := cliEnv(dataDir, nil)
	if code := e.Ask([]string{"--agent", "demo", "--project", repo, "--worktree", "/scenario tool"}); code != 0 {
		t.Fatalf("ask: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	// main moves the same line elsewhere: a conflict.
	os.WriteFile(filepath.Join(repo, "hello.txt"), []byte("main's own hello\n"), 0o644)
	git("commit", "-q", "-am", "main moved")

	ctx := context.Background()
	c := httpapi.NewLocalClient(httpapi.SocketPath(dataDir))
	var p run.Project
	var list []run.Workspace
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: repo}, &p); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, "GET", "/api/projects/"+p.ID+"/workspaces", nil, &list); err != nil || len(list) != 1 {
		t.Fatalf("%v %v", list, err)
	}
	id := list[0].ID
	e, out, _ = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"merge", id, "--preview"}); code != exitFail || !strings.Contains(out.String(), "conflict: hello.txt\n  CONFLICT (") {
		t.Fatalf("preview: %d\n%s", code, out.String())
	}
	var res service.ResolveResult
	if err := c.Call(ctx, "POST", "/api/workspaces/"+id+"/merge/resolve", service.MergeRequest{}, &res); err != nil {
		t.Fatal(err)
	}
	if err := c.Follow(ctx, res.Run.RunID, 0, func(run.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var msgs []run.Message
	var detail struct {
		Messages []run.Message `json:"messages"`
	}
	if err := c.Call(ctx, "GET", "/api/sessions/"+res.Run.SessionID, nil, &detail); err != nil {
		t.Fatal(err)
	}
	msgs = detail.Messages
	last := ""
	for _, m := range msgs {
		if m.Role == run.RoleUser {
			last = m.Content
		}
	}
	if !strings.Contains(last, "Merging this workspace into main conflicts in 1 file") || !strings.Contains(last, "- hello.txt\n  git: CONFLICT (content)") {
		t.Fatalf("the agent was told %q", last)
	}
	var again merge.Preview
	if err := c.Call(ctx, "POST", "/api/workspaces/"+id+"/merge/preview", service.MergeRequest{}, &again); err != nil || again.Clean {
		t.Fatalf("the preview after the run: %+v %v", again, err)
	}
}
