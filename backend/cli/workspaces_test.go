package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

// `ask --worktree` runs in a new worktree of the project; `workspaces ls`,
// `archive` and `restore` see, put away and bring it back with the run's
// file (docs/ARCHITECTURE.md §Workspaces).
func TestEndToEndAskInAWorktree(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	repo := t.TempDir()
	gitcmdtest.Init(t, repo)

	e, out, errOut := cliEnv(dataDir, nil)
	if code := e.Ask([]string{"--agent", "demo", "--project", repo, "--base", "main"}); code != exitUsage {
		t.Fatalf("--base without --worktree: exit %d", code)
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Ask([]string{"--agent", "demo", "--project", repo, "--worktree", "/scenario tool"}); code != 0 {
		t.Fatalf("ask: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "Working in the worktree "+filepath.Join(repo, ".worktrees")) {
		t.Fatalf("ask said:\n%s", errOut.String())
	}
	made, _ := filepath.Glob(filepath.Join(repo, ".worktrees", "*", "hello.txt"))
	if len(made) != 1 {
		t.Fatalf("hello.txt in worktrees: %v", made)
	}
	if _, err := os.Stat(filepath.Join(repo, "hello.txt")); err == nil {
		t.Fatal("the run wrote into the checkout")
	}

	e, out, _ = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"ls", "--project", repo}); code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "ready") || !strings.Contains(lines[1], "hermesdesk/") {
		t.Fatalf("workspaces ls:\n%s", out.String())
	}
	id := strings.Fields(lines[1])[0]

	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"archive", id}); code != 0 || !strings.Contains(out.String(), "Archived "+id) {
		t.Fatalf("archive: %d\n%s%s", code, out.String(), errOut.String())
	}
	if _, err := os.Stat(made[0]); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"archive", id}); code == 0 || !strings.Contains(errOut.String(), "not a ready worktree") {
		t.Fatalf("archive twice: %d\n%s%s", code, out.String(), errOut.String())
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"restore", id}); code != 0 {
		t.Fatalf("restore: %d\n%s%s", code, out.String(), errOut.String())
	}
	if data, err := os.ReadFile(made[0]); err != nil || string(data) != "hello from the demo agent\n" {
		t.Fatalf("hello.txt after restore: %q %v", data, err)
	}

	// A worktree made with plain git is listed as made outside, with no id.
	outside := filepath.Join(t.TempDir(), "mine")
	if msg, err := exec.Command("git", "-C", repo, "worktree", "add", "-q", "-b", "mine", outside).CombinedOutput(); err != nil {
		t.Fatalf("git worktree add: %v %s", err, msg)
	}
	e, out, _ = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"ls", "--project", repo}); code != 0 {
		t.Fatal(code)
	}
	lines = strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[2], "-") || !strings.Contains(lines[2], "outside") || !strings.Contains(lines[2], outside) {
		t.Fatalf("workspaces ls with an outside worktree:\n%s", out.String())
	}
}
