package workspaces

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
)

// Git is every side effect on a repository the workspaces need; the real
// one (gitGit) runs git through backend/gitcmd, the one place git runs
// (docs/ARCHITECTURE.md §Security, "Git in a project").
type Git interface {
	// Inspect finds the repository of dir and the facts that decide
	// whether a worktree can be made from it (base "" = the checkout's
	// branch).
	Inspect(ctx context.Context, dir, base string) (Repo, error)
	Worktrees(ctx context.Context, top string) ([]gitcmd.Worktree, error)
	// AddWorktree makes branch at base checked out at path; with base ""
	// it checks out the existing branch.
	AddWorktree(ctx context.Context, top, path, branch, base string) error
	Lock(ctx context.Context, top, path, reason string) error
	Unlock(ctx context.Context, top, path string) error
	// RemoveWorktree removes a worktree whose files are saved elsewhere.
	RemoveWorktree(ctx context.Context, top, path string) error
	Prune(ctx context.Context, top string) error
	// ResolveRef gives the commit a ref names, "" when it names none.
	ResolveRef(ctx context.Context, top, ref string) (string, error)
	DeleteRef(ctx context.Context, top, ref, old string) error
	// Snapshot commits the worktree's tracked and untracked files (not
	// ignored ones) through a temporary index, parented on HEAD, and
	// points ref at it; the person's index is never touched.
	Snapshot(ctx context.Context, path, ref, message string) (string, error)
	// PutSnapshot makes the worktree's files those of commit (HEAD and
	// the index stay), deleting the files it does not hold.
	PutSnapshot(ctx context.Context, path, commit string) error
	// Ignored lists the top-most ignored paths of the worktree.
	Ignored(ctx context.Context, path string) ([]string, error)
	// Status counts changed files and the commits ahead of and behind base.
	Status(ctx context.Context, path, base string) (Status, error)
}

// Repo is what Inspect found.
type Repo struct {
	// Top is the main checkout's folder; CommonDir its .git folder.
	Top, CommonDir string
	// Base is the branch (or commit) to start from, BaseCommit its commit.
	Base, BaseCommit string
	Facts            RepoFacts
}

// Status is a worktree at a glance.
type Status struct {
	Changed int `json:"changed"`
	Ahead   int `json:"ahead"`
	Behind  int `json:"behind"`
}

type gitGit struct{}

// RealGit is the Git that runs git.
func RealGit() Git { return gitGit{} }

func (gitGit) Inspect(ctx context.Context, dir, base string) (Repo, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return Repo{Facts: RepoFacts{GitMissing: true}}, nil
	}
	out, err := gitcmd.Output(ctx, dir, "rev-parse", "--path-format=absolute", "--git-common-dir", "--is-bare-repository")
	if err != nil {
		if ctx.Err() != nil {
			return Repo{}, err
		}
		return Repo{Facts: RepoFacts{NotRepo: true}}, nil
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		return Repo{Facts: RepoFacts{NotRepo: true}}, nil
	}
	r := Repo{CommonDir: lines[0]}
	if lines[1] == "true" {
		r.Facts.Bare = true
		return r, nil
	}
	// The main checkout is the first worktree git lists, whichever
	// worktree dir is in.
	wts, err := gitcmd.Worktrees(ctx, dir)
	if err != nil || len(wts) == 0 {
		return Repo{}, fmt.Errorf("the repository's worktrees could not be listed: %w", err)
	}
	r.Top = wts[0].Path
	if wts[0].Bare {
		r.Facts.Bare = true
		return r, nil
	}
	if base == "" {
		b, err := gitcmd.Output(ctx, r.Top, "symbolic-ref", "-q", "--short", "HEAD")
		if err != nil {
			r.Facts.Detached = true
			return r, nil
		}
		base = strings.TrimSpace(b)
	}
	r.Base, r.Facts.Base = base, base
	c, err := gitcmd.Output(ctx, r.Top, "rev-parse", "-q", "--verify", "--end-of-options", base+"^{commit}")
	if err != nil {
		if ctx.Err() != nil {
			return Repo{}, err
		}
		// An unborn branch (no commit yet) or a base that names nothing.
		if _, herr := gitcmd.Output(ctx, r.Top, "rev-parse", "-q", "--verify", "HEAD"); herr != nil {
			r.Facts.Unborn = true
		} else {
			r.Facts.BaseMissing = true
		}
		return r, nil
	}
	r.BaseCommit = strings.TrimSpace(c)
	return r, nil
}

func (gitGit) Worktrees(ctx context.Context, top string) ([]gitcmd.Worktree, error) {
	return gitcmd.Worktrees(ctx, top)
}

func (gitGit) AddWorktree(ctx context.Context, top, path, branch, base string) error {
	args := []string{"worktree", "add", "--quiet"}
	if base != "" {
		args = append(args, "-b", branch, "--end-of-options", path, base)
	} else {
		args = append(args, "--end-of-options", path, branch)
	}
	_, err := gitcmd.Output(ctx, top, args...)
	return err
}

func (gitGit) Lock(ctx context.Context, top, path, reason string) error {
	_, err := gitcmd.Output(ctx, top, "worktree", "lock", "--reason", reason, "--end-of-options", path)
	return err
}

func (gitGit) Unlock(ctx context.Context, top, path string) error {
	_, err := gitcmd.Output(ctx, top, "worktree", "unlock", "--end-of-options", path)
	return err
}

func (gitGit) RemoveWorktree(ctx context.Context, top, path string) error {
	// --force: its tracked and untracked files are in the snapshot and its
	// ignored ones were moved aside before this (Archive).
	_, err := gitcmd.Output(ctx, top, "worktree", "remove", "--force", "--end-of-options", path)
	return err
}

func (gitGit) Prune(ctx context.Context, top string) error {
	_, err := gitcmd.Output(ctx, top, "worktree", "prune")
	return err
}

func (gitGit) ResolveRef(ctx context.Context, top, ref string) (string, error) {
	out, err := gitcmd.Output(ctx, top, "for-each-ref", "--format=%(objectname)", "--end-of-options", ref)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(out, "\n") {
		if line != "" {
			return line, nil
		}
	}
	return "", nil
}

func (gitGit) DeleteRef(ctx context.Context, top, ref, old string) error {
	_, err := gitcmd.Output(ctx, top, "update-ref", "-d", "--end-of-options", ref, old)
	return err
}

// identity is who the snapshot commits say made them.
var identity = gitcmd.Identity("hermesdesk@localhost")

func (gitGit) Snapshot(ctx context.Context, path, ref, message string) (string, error) {
	tmp, err := os.MkdirTemp("", "hermesdesk-archive-*")
	if err != nil {
		return "", fmt.Errorf("a temporary folder for the snapshot could not be made: %w", err)
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	run := func(args ...string) (string, error) {
		out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: path, Args: args, Env: append(env, identity...)})
		return strings.TrimSpace(string(out)), err
	}
	if _, err := run("read-tree", "HEAD"); err != nil {
		return "", err
	}
	if _, err := run("add", "-A", "--", "."); err != nil {
		return "", err
	}
	tree, err := run("write-tree")
	if err != nil {
		return "", err
	}
	commit, err := run("commit-tree", tree, "-p", "HEAD", "-m", message)
	if err != nil {
		return "", err
	}
	if _, err := run("update-ref", "-m", message, "--end-of-options", ref, commit); err != nil {
		return "", err
	}
	return commit, nil
}

func (gitGit) PutSnapshot(ctx context.Context, path, commit string) error {
	tmp, err := os.MkdirTemp("", "hermesdesk-restore-*")
	if err != nil {
		return fmt.Errorf("a temporary folder for the restore could not be made: %w", err)
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	if _, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: path, Args: []string{"read-tree", "--end-of-options", commit}, Env: env}); err != nil {
		return err
	}
	if _, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: path, Args: []string{"checkout-index", "-a", "-f"}, Env: env}); err != nil {
		return err
	}
	// Files of HEAD the snapshot does not hold were deleted before the
	// archive: delete them again.
	out, err := gitcmd.Output(ctx, path, "diff-tree", "-r", "-z", "--no-renames", "--name-only", "--diff-filter=D", "HEAD", commit)
	if err != nil {
		return err
	}
	for _, name := range strings.Split(out, "\x00") {
		if name == "" {
			continue
		}
		if err := os.Remove(filepath.Join(path, filepath.FromSlash(name))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("a file deleted before the archive could not be deleted again: %w", err)
		}
	}
	return nil
}

func (gitGit) Ignored(ctx context.Context, path string) ([]string, error) {
	out, err := gitcmd.Output(ctx, path, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil {
		return nil, err
	}
	var list []string
	for _, name := range strings.Split(out, "\x00") {
		if name = strings.TrimSuffix(name, "/"); name != "" {
			list = append(list, name)
		}
	}
	return list, nil
}

func (gitGit) Status(ctx context.Context, path, base string) (Status, error) {
	var st Status
	out, err := gitcmd.Output(ctx, path, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=all")
	if err != nil {
		return st, err
	}
	for _, e := range strings.Split(out, "\x00") {
		if e != "" {
			st.Changed++
		}
	}
	if base == "" {
		return st, nil
	}
	out, err = gitcmd.Output(ctx, path, "rev-list", "--left-right", "--count", "HEAD..."+base, "--")
	if err != nil {
		return st, err
	}
	f := strings.Fields(out)
	if len(f) == 2 {
		st.Ahead, _ = strconv.Atoi(f[0])
		st.Behind, _ = strconv.Atoi(f[1])
	}
	return st, nil
}
