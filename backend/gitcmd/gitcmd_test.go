//go:build unix

package gitcmd_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

// Every git operation the app performs, and those the next features will
// (commits on private refs, worktrees, merges), run in a repository whose
// config, attributes, hooks, the person's global config and environment
// all name a program: none may run (docs/ARCHITECTURE.md §Security, "Git
// in a project").
func TestNothingOfTheRepositoryRuns(t *testing.T) {
	r := gitcmdtest.New(t)
	ctx := context.Background()
	tmpIndex := filepath.Join(t.TempDir(), "index")
	os.WriteFile(filepath.Join(r.Dir, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	os.WriteFile(filepath.Join(r.Dir, "c.inc"), []byte("included, changed\n"), 0o644)
	os.WriteFile(filepath.Join(r.Dir, "d.proc"), []byte("new\n"), 0o644)

	steps := []struct {
		name    string
		cmd     gitcmd.Cmd
		wantErr bool
	}{
		{name: "find the top", cmd: gitcmd.Cmd{Args: []string{"rev-parse", "--show-toplevel"}}},
		{name: "status", cmd: gitcmd.Cmd{Args: []string{"status", "--porcelain=v1", "-z"}}},
		{name: "list files", cmd: gitcmd.Cmd{Args: []string{"ls-files", "-z", "-m", "-o", "--exclude-standard"}}},
		{name: "add to a temporary index", cmd: gitcmd.Cmd{Args: []string{"add", "-A", "--", "."}, Env: []string{"GIT_INDEX_FILE=" + tmpIndex}}},
		{name: "write the tree", cmd: gitcmd.Cmd{Args: []string{"write-tree"}, Env: []string{"GIT_INDEX_FILE=" + tmpIndex}}},
		{name: "diff the work tree", cmd: gitcmd.Cmd{Args: []string{"diff", "HEAD"}}},
		{name: "diff trees", cmd: gitcmd.Cmd{Args: []string{"diff", "--raw", "-z", "-p", "HEAD", "HEAD"}}},
		{name: "log with patches", cmd: gitcmd.Cmd{Args: []string{"log", "-p", "-1"}}},
		{name: "show", cmd: gitcmd.Cmd{Args: []string{"show", "HEAD"}}},
		{name: "add to the index", cmd: gitcmd.Cmd{Args: []string{"add", "-A"}}},
		{name: "commit", cmd: gitcmd.Cmd{Args: []string{"commit", "-qm", "run"}}},
		{name: "a private ref", cmd: gitcmd.Cmd{Args: []string{"update-ref", "refs/hermesdesk/checkpoints/s/1", "HEAD"}}},
		{name: "a worktree", cmd: gitcmd.Cmd{Args: []string{"worktree", "add", "-q", "-b", "hermesdesk/w", filepath.Join(t.TempDir(), "wt"), "other"}}},
		{name: "checkout a file", cmd: gitcmd.Cmd{Args: []string{"checkout", "other", "--", "a.txt"}}},
		{name: "restore it", cmd: gitcmd.Cmd{Args: []string{"checkout", "main", "--", "a.txt"}}},
		{name: "merge tree", cmd: gitcmd.Cmd{Args: []string{"merge-tree", "--write-tree", "main", "other"}}, wantErr: true}, // a conflict: exit 1
		{name: "merge", cmd: gitcmd.Cmd{Args: []string{"merge", "--no-edit", "other"}}, wantErr: true},                      // the same conflict
		{name: "abort the merge", cmd: gitcmd.Cmd{Args: []string{"merge", "--abort"}}},
		{name: "reach a remote", cmd: gitcmd.Cmd{Args: []string{"ls-remote", "origin"}}, wantErr: true},
		{name: "a caller cannot switch a filter back on", cmd: gitcmd.Cmd{Args: []string{"add", "-A"}, Config: []string{"filter.evil.clean=" + r.Marker, "core.hooksPath=" + r.Dir}}},
	}
	for _, s := range steps {
		s.cmd.Dir = r.Dir
		_, err := gitcmd.Run(ctx, s.cmd)
		if (err != nil) != s.wantErr {
			t.Errorf("%s: err = %v, want error %v", s.name, err, s.wantErr)
		}
		if ran := r.Ran(); len(ran) > 0 {
			t.Errorf("%s ran the repository's programs: %s", s.name, strings.Join(ran, ", "))
		}
		r.Reset()
	}
}

// A git that hangs, and a child of it that holds its stderr after it is
// killed, end with the context: the run is bounded (issue 21, item 4).
func TestTimeoutEndsGitAndItsChildren(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	fake := filepath.Join(dir, "git")
	real, err := lookGit()
	if err != nil {
		t.Skip("git not installed")
	}
	// Answers the version and config reads like git, then hangs in a
	// child that keeps stderr open.
	os.WriteFile(fake, []byte(`#!/bin/sh
case "$1" in version|config) exec `+real+` "$@";; esac
sleep 300 &
echo $! > `+pidFile+`
exec sleep 300
`), 0o755)
	restore := gitcmd.SetProgramForTest(fake)
	defer restore()
	const timeout = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	began := time.Now()
	_, err = gitcmd.Run(ctx, gitcmd.Cmd{Dir: dir, Args: []string{"add", "-A"}})
	// Back well before the 2 s wait for output would give up: the child
	// holding stderr died with its group.
	if took := time.Since(began); took > timeout+time.Second {
		t.Errorf("Run took %v after a %v timeout", took, timeout)
	}
	if err == nil || ctx.Err() == nil {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "stopped") {
		t.Errorf("err = %v, want it to say git was stopped", err)
	}
	b, _ := os.ReadFile(pidFile)
	if pid := strings.TrimSpace(string(b)); pid != "" && processAlive(pid) {
		t.Errorf("git's child %s outlived the timeout", pid)
	}
}

// Output past MaxOutput is dropped, never blocking git, and said.
func TestMaxOutputCuts(t *testing.T) {
	r := gitcmdtest.New(t)
	out, err := gitcmd.Run(context.Background(), gitcmd.Cmd{Dir: r.Dir, Args: []string{"ls-files", "-z"}, MaxOutput: 3})
	if !errors.Is(err, gitcmd.ErrOutputCut) || string(out) != "a.t" {
		t.Fatalf("out %q, err %v", out, err)
	}
}
