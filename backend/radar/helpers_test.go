package radar

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// git runs the real git in dir (gitcmdtest's clean environment), its
// output trimmed.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gitcmdtest.Git(t, dir, args...))
}

func write(t testing.TB, dir, name, content string) {
	t.Helper()
	gitcmdtest.Write(t, filepath.Join(dir, filepath.FromSlash(name)), content)
}

// server is api/server.go's first version: ten numbered lines.
func server(changes map[int]string) string {
	var b strings.Builder
	for i := 1; i <= 10; i++ {
		line := fmt.Sprintf("line %d", i)
		if c, ok := changes[i]; ok {
			line = c
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// repo is a repository with api/server.go and api/client.go on main, and
// its worktrees as the journal would list them.
type repo struct {
	t   testing.TB
	top string
	src *fakeSource
}

func newRepo(t testing.TB, files int) *repo {
	t.Helper()
	top := filepath.Join(t.TempDir(), "repo")
	os.MkdirAll(top, 0o755)
	git(t, top, "init", "-q", "-b", "main")
	write(t, top, "api/server.go", server(nil))
	write(t, top, "api/client.go", "client 1\nclient 2\n")
	for i := 0; i < files; i++ {
		write(t, top, fmt.Sprintf("pkg/%03d/f%05d.txt", i%100, i), fmt.Sprintf("file %d\n", i))
	}
	git(t, top, "add", "-A")
	git(t, top, "commit", "-q", "-m", "first")
	return &repo{t: t, top: top, src: &fakeSource{ws: map[string][]run.Workspace{}, sessions: map[string]string{}}}
}

// worktree adds a ready worktree to project "p", made age minutes in.
func (r *repo) worktree(id string, age int) string {
	r.t.Helper()
	path := filepath.Join(filepath.Dir(r.top), "wt-"+id)
	git(r.t, r.top, "worktree", "add", "-q", "-b", "hermesdesk/"+id, path, "main")
	r.src.add("p", run.Workspace{ID: id, ProjectID: "p", Kind: "worktree", State: "ready", Path: path,
		Branch: "hermesdesk/" + id, CreatedAt: time.Date(2026, 1, 1, 0, age, 0, 0, time.UTC)})
	r.src.session("ses-"+id, id)
	return path
}

type fakeSource struct {
	mu       sync.Mutex
	ws       map[string][]run.Workspace
	sessions map[string]string
}

func (f *fakeSource) add(project string, w run.Workspace) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ws[project] = append(f.ws[project], w)
}

func (f *fakeSource) session(id, workspace string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions[id] = workspace
}

func (f *fakeSource) Workspaces(_ context.Context, project string) ([]run.Workspace, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]run.Workspace(nil), f.ws[project]...), nil
}

func (f *fakeSource) SessionWorkspace(_ context.Context, id string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sessions[id], nil
}

// running starts a radar over r and returns the channel of its answers.
func running(t *testing.T, r *Radar) <-chan run.Conflicts {
	t.Helper()
	out := make(chan run.Conflicts, 16)
	r.Publish = func(c run.Conflicts) { out <- c }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return out
}

func next(t *testing.T, ch <-chan run.Conflicts) run.Conflicts {
	t.Helper()
	select {
	case c := <-ch:
		return c
	case <-time.After(30 * time.Second):
		t.Fatal("the radar published nothing")
		return run.Conflicts{}
	}
}
