package merge

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

// The git this package runs, every call through backend/gitcmd
// (docs/ARCHITECTURE.md §Security, "Git in a project").

func git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitcmd.Output(ctx, dir, args...)
	return strings.TrimSpace(out), err
}

// commitOf is the commit rev names, "" when it names none.
func commitOf(ctx context.Context, dir, rev string) (string, error) {
	out, err := git(ctx, dir, "rev-parse", "-q", "--verify", "--end-of-options", rev+"^{commit}")
	var exit *exec.ExitError
	if err != nil && errors.As(err, &exit) && ctx.Err() == nil {
		return "", nil
	}
	return out, err
}

// splitZ cuts NUL-separated output, dropping empty fields.
func splitZ(out string) []string {
	var list []string
	for _, s := range strings.Split(out, "\x00") {
		if s != "" {
			list = append(list, s)
		}
	}
	return list
}

// changedPaths lists the paths that differ between two trees or commits.
func changedPaths(ctx context.Context, dir, from, to string) ([]string, error) {
	out, err := gitcmd.Output(ctx, dir, "diff-tree", "-r", "-z", "--no-renames", "--name-only", from, to, "--")
	if err != nil {
		return nil, err
	}
	return splitZ(out), nil
}

// dirtyPaths lists what is changed in a checkout among paths (all of it
// when paths is long): staged, unstaged or untracked (not ignored)
// files. Only the paths a merge changes can decide it, and a status of
// them alone does not stat the whole checkout.
func dirtyPaths(ctx context.Context, dir string, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	args := []string{"status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=all"}
	if len(paths) <= maxPathArgs {
		args = append(args, "--")
		for _, p := range paths {
			args = append(args, ":(literal)"+p)
		}
	}
	out, err := gitcmd.Output(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	var list []string
	for _, e := range splitZ(out) {
		if len(e) > 3 {
			list = append(list, e[3:])
		}
	}
	return list, nil
}

// maxPathArgs bounds the paths given on a command line.
const maxPathArgs = 2000

// appIdentity is who the commits the app makes of a worktree's files say
// made them (as backend/workspaces' snapshots).
var appIdentity = gitcmd.Identity("hermesdesk@localhost")

// checkoutOf is the worktree (the main checkout or another) where branch
// is checked out, "" when none.
func checkoutOf(ctx context.Context, top, branch string) (string, error) {
	wts, err := gitcmd.Worktrees(ctx, top)
	if err != nil {
		return "", err
	}
	for _, w := range wts {
		if w.Branch == "refs/heads/"+branch && !w.Bare {
			return w.Path, nil
		}
	}
	return "", nil
}

func count(ctx context.Context, dir string, args ...string) (int, error) {
	out, err := git(ctx, dir, append([]string{"rev-list", "--count"}, args...)...)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(out)
}

// identity is who the merge's commits say made them: the person's
// user.name and user.email, read from the repository's config and then
// from their own config files with `git config --file` (reading runs
// nothing; gitcmd otherwise points the global config nowhere), else
// "Hermes Desk".
func identity(ctx context.Context, dir string) []string {
	name, email := lookIdentity(ctx, dir, nil)
	if home, err := os.UserHomeDir(); err == nil && (name == "" || email == "") {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		for _, f := range []string{filepath.Join(home, ".gitconfig"), filepath.Join(xdg, "git", "config")} {
			if _, err := os.Stat(f); err != nil {
				continue
			}
			n, e := lookIdentity(ctx, dir, []string{"--file", f})
			if name == "" {
				name = n
			}
			if email == "" {
				email = e
			}
		}
	}
	if name == "" {
		name = "Hermes Desk"
	}
	if email == "" {
		email = "hermesdesk@localhost"
	}
	return []string{"GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email,
		"GIT_COMMITTER_NAME=" + name, "GIT_COMMITTER_EMAIL=" + email}
}

func lookIdentity(ctx context.Context, dir string, where []string) (name, email string) {
	get := func(key string) string {
		out, _ := git(ctx, dir, append(append([]string{"config"}, where...), "--get", key)...)
		return out
	}
	return get("user.name"), get("user.email")
}

// commitTree makes a commit of tree with parents and message; nothing
// points at it yet.
func commitTree(ctx context.Context, dir string, env []string, tree, message string, parents ...string) (string, error) {
	args := []string{"commit-tree", tree}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: dir, Args: append(args, "-F", "-"), Env: env, Stdin: strings.NewReader(message)})
	if err != nil {
		return "", fmt.Errorf("a commit could not be made: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// TopOf is the main checkout of the repository dir belongs to (the first
// worktree git lists).
func TopOf(ctx context.Context, dir string) (string, error) {
	wts, err := gitcmd.Worktrees(ctx, dir)
	if err != nil || len(wts) == 0 || wts[0].Bare {
		return "", fmt.Errorf("the repository's main checkout could not be found: %w", err)
	}
	return wts[0].Path, nil
}
