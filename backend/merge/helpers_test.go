package merge

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

func gitT(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gitcmdtest.Git(t, dir, args...))
}

func read(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// repo is a real repository on main (a.txt, b.txt, c.txt) with a
// workspace's worktree on hermesdesk/ws, as backend/workspaces makes them.
type repo struct {
	top, wt string
	target  Target
}

func newRepo(t testing.TB) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	r := &repo{top: filepath.Join(root, "repo")}
	gitT(t, root, "init", "-q", "-b", "main", r.top)
	gitcmdtest.Write(t, filepath.Join(r.top, "a.txt"), "one\ntwo\nthree\n")
	gitcmdtest.Write(t, filepath.Join(r.top, "b.txt"), "bee\n")
	gitcmdtest.Write(t, filepath.Join(r.top, "c.txt"), "sea\n")
	gitT(t, r.top, "add", "-A")
	gitT(t, r.top, "commit", "-q", "-m", "first")
	r.wt = filepath.Join(r.top, ".worktrees", "ws")
	gitcmdtest.Write(t, filepath.Join(r.top, ".git", "info", "exclude"), ".worktrees/\n")
	gitT(t, r.top, "worktree", "add", "-q", "-b", "hermesdesk/ws", r.wt, "main")
	r.target = Target{WorkspaceID: "wsp_test", Top: r.top, Path: r.wt, Branch: "hermesdesk/ws", Base: "main",
		Title: "Better a", Runs: []Run{{Message: "change a"}}}
	return r
}

// commit commits every change in dir.
func (r *repo) commit(t testing.TB, dir, msg string) string {
	t.Helper()
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "-m", msg)
	return gitT(t, dir, "rev-parse", "HEAD")
}

func (r *repo) preview(t testing.TB, s Strategy) Preview {
	t.Helper()
	p, err := PreviewOf(context.Background(), r.target, s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// state is everything of the person's a merge could move: refs, the
// checkouts' index and status, and the files' contents.
func (r *repo) state(t testing.TB) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(gitT(t, r.top, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/stash"))
	for _, dir := range []string{r.top, r.wt} {
		b.WriteString("\n" + gitT(t, dir, "rev-parse", "HEAD") + "\n")
		b.WriteString(gitT(t, dir, "ls-files", "-s") + "\n")
		b.WriteString(gitT(t, dir, "status", "--porcelain", "--untracked-files=all") + "\n")
		for _, f := range []string{"a.txt", "b.txt", "c.txt", "new.txt", "notes.txt"} {
			if s, err := os.ReadFile(filepath.Join(dir, f)); err == nil {
				b.WriteString(f + ":" + string(s))
			}
		}
	}
	return b.String()
}

func lookGit(t testing.TB) string {
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	return p
}
