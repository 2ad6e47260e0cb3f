package merge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
)

// Pushed is what Push did.
type Pushed struct {
	Remote string `json:"remote"`
	Branch string `json:"branch"`
}

// Push pushes the workspace's branch to the main checkout's remote: the
// base branch's upstream remote, else "origin", else the only one
// (docs/ARCHITECTURE.md §Merge, §Security "Push").
func Push(ctx context.Context, t Target) (Pushed, error) {
	remote, err := remoteOf(ctx, t.Top, t.Base)
	if err != nil {
		return Pushed{}, err
	}
	ref := "refs/heads/" + t.Branch
	if err := gitcmd.Push(ctx, t.Top, remote, ref+":"+ref); err != nil {
		if errors.Is(err, gitcmd.ErrTransport) {
			return Pushed{}, refused(strings.TrimPrefix(err.Error(), gitcmd.ErrTransport.Error()+": "))
		}
		return Pushed{}, fmt.Errorf("the branch %s could not be pushed to %s: %w", t.Branch, remote, err)
	}
	return Pushed{Remote: remote, Branch: t.Branch}, nil
}

func remoteOf(ctx context.Context, top, base string) (string, error) {
	if r, _ := git(ctx, top, "config", "--get", "branch."+base+".remote"); r != "" && r != "." {
		return r, nil
	}
	out, err := git(ctx, top, "remote")
	if err != nil {
		return "", err
	}
	remotes := strings.Fields(out)
	for _, r := range remotes {
		if r == "origin" {
			return r, nil
		}
	}
	if len(remotes) == 1 {
		return remotes[0], nil
	}
	if len(remotes) == 0 {
		return "", refused("the repository has no remote to push to; add one (git remote add origin <url>)")
	}
	return "", refused(fmt.Sprintf("the repository has several remotes (%s) and none is origin or %s's upstream; set %s's upstream", strings.Join(remotes, ", "), base, base))
}

// PullRequest is an opened pull request.
type PullRequest struct {
	URL string `json:"url"`
}

// ghTimeout bounds each gh command (it reaches the network).
const ghTimeout = 60 * time.Second

// OpenPullRequest opens a pull request of the workspace's branch (pushed
// first) against its base through the GitHub CLI when it is installed
// and signed in; otherwise a refusal that says what to do. gh runs as
// the person (their config and sign-in), with gitcmd's overrides in its
// environment for the git it runs itself.
func OpenPullRequest(ctx context.Context, t Target, title, body string) (PullRequest, error) {
	gh, err := exec.LookPath("gh")
	if err != nil {
		return PullRequest{}, refused("the GitHub CLI (gh) is not installed, so Hermes Desk cannot open a pull request; push the branch and open the pull request on the website, or install gh and run `gh auth login`")
	}
	if strings.TrimSpace(title) == "" {
		return PullRequest{}, fmt.Errorf("%w: a pull request needs a title", errdefs.ErrInvalid)
	}
	env, err := gitcmd.OverridesEnv(ctx, t.Top)
	if err != nil {
		return PullRequest{}, err
	}
	env = append(os.Environ(), append(env, "GH_PROMPT_DISABLED=1", "GIT_TERMINAL_PROMPT=0", "NO_COLOR=1")...)
	if _, err := runGH(ctx, gh, t.Top, env, nil, "auth", "status"); err != nil {
		return PullRequest{}, refused("the GitHub CLI (gh) is not signed in; run `gh auth login` in a terminal, then try again")
	}
	if _, err := Push(ctx, t); err != nil {
		return PullRequest{}, err
	}
	out, err := runGH(ctx, gh, t.Top, env, strings.NewReader(body),
		"pr", "create", "--head", t.Branch, "--base", t.Base, "--title", title, "--body-file", "-")
	if err != nil {
		return PullRequest{}, fmt.Errorf("gh could not open the pull request: %w", err)
	}
	lines := strings.Fields(out)
	if len(lines) == 0 {
		return PullRequest{}, errors.New("gh opened no pull request (it printed nothing)")
	}
	return PullRequest{URL: lines[len(lines)-1]}, nil
}

func runGH(ctx context.Context, gh, dir string, env []string, stdin *strings.Reader, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, ghTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, gh, args...)
	cmd.Dir, cmd.Env = dir, env
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return "", fmt.Errorf("gh %s: %w: %s", args[0], err, msg)
	}
	return stdout.String(), nil
}
