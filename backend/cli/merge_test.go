package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
