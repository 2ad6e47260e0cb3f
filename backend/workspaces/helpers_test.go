package workspaces

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// git runs the real git in dir for a test's own set-up and checks
// (gitcmdtest's clean environment), its output trimmed.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gitcmdtest.Git(t, dir, args...))
}

// newRepo makes a repository with one commit on main: a.txt, a script,
// a .gitignore ignoring *.log and node_modules/.
func newRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.txt", "alpha\n", 0o644)
	write(t, dir, "gone.txt", "to be deleted\n", 0o644)
	write(t, dir, "run.sh", "#!/bin/sh\necho hi\n", 0o755)
	write(t, dir, ".gitignore", "*.log\nnode_modules/\n.env\n", 0o644)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func write(t testing.TB, dir, name, content string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(dir, name)
	gitcmdtest.Write(t, p, content)
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// openStore opens a journal at path with a project for repo.
func openStore(t testing.TB, path, repo string) (*journal.Store, run.Project) {
	t.Helper()
	st, err := journal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p, err := st.CreateProject(context.Background(), "p", repo)
	if err != nil {
		t.Fatal(err)
	}
	return st, p
}

// liveStore reports a live run in every workspace when live is set.
type liveStore struct {
	*journal.Store
	live bool
}

func (s *liveStore) WorkspaceRunLive(ctx context.Context, id string) (bool, error) {
	if s.live {
		return true, nil
	}
	return s.Store.WorkspaceRunLive(ctx, id)
}

// tree reads every file under dir except .git: content, executable bit
// and, for a symlink, its target.
func tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ".git" {
			if info.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if info.IsDir() {
			return nil
		}
		if info.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[rel] = "symlink → " + target
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Git keeps the executable bit, not the rest of the mode.
		exec := "-"
		if info.Mode()&0o100 != 0 {
			exec = "x"
		}
		out[rel] = exec + " " + string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// newManager is New for a test; its setup steps are waited for before
// the test's folders go.
func newManager(t testing.TB, st Store) *Manager {
	m := New(st, nil, nil)
	t.Cleanup(m.Wait)
	return m
}
