package gitcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// ErrTransport: the remote's URL names a transport Push does not open.
var ErrTransport = errors.New("gitcmd: transport not allowed")

// Push pushes refspecs to remote, a remote the repository at dir
// configures, through the one transport its push URL (as git resolves
// it, insteadOf rules applied) names — file, ssh, http or https; any
// other (ext::, fd::, a remote helper) is refused. Every other command
// keeps every transport closed (docs/ARCHITECTURE.md §Security, "Git in a
// project", "Push"). The program-running keys stay emptied:
// remote.<x>.receivepack is git's own, hooks run on neither side (a
// local remote's receive-pack gets them off on its command line), no
// credential helper runs (an https remote that needs a password fails
// with git's words), and ssh is the `ssh` on PATH in batch mode, never
// the repository's core.sshCommand, with the agent's socket passed on.
func Push(ctx context.Context, dir, remote string, refspecs ...string) error {
	if remote == "" || strings.HasPrefix(remote, "-") {
		return fmt.Errorf("%w: %q is not a remote's name", ErrTransport, remote)
	}
	url, err := Output(ctx, dir, "remote", "get-url", "--push", "--end-of-options", remote)
	if err != nil {
		return fmt.Errorf("the repository has no remote %q: %w", remote, err)
	}
	url = strings.TrimSpace(url)
	proto := TransportOf(url)
	if proto == "" {
		return fmt.Errorf("%w: the remote %q points at %q, whose transport Hermes Desk does not open", ErrTransport, remote, url)
	}
	env := []string{"GIT_ALLOW_PROTOCOL=" + proto}
	if proto == "ssh" {
		// GIT_SSH_COMMAND outranks core.sshCommand (kept "false").
		env = append(env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes", "GIT_SSH_VARIANT=ssh")
		if sock, ok := os.LookupEnv("SSH_AUTH_SOCK"); ok {
			env = append(env, "SSH_AUTH_SOCK="+sock)
		}
	}
	args := []string{"push", "--quiet", "--porcelain"}
	if proto == "file" {
		// A local remote's receive-pack runs here, and git clears the
		// config overrides from its environment (a local transport gets
		// a clean one): its hooks and fsmonitor are turned off on its own
		// command line instead.
		args = append(args, "--receive-pack="+localReceivePack)
	}
	args = append(append(args, "--end-of-options", url), refspecs...)
	_, err = Run(ctx, Cmd{Dir: dir, Args: args, Env: env})
	return err
}

// localReceivePack is the receive-pack a push to a local repository runs
// (through sh, by git's local transport): no hook of that repository.
const localReceivePack = "git -c core.hooksPath=" + devNullHooks + " -c core.fsmonitor=false -c receive.procReceiveRefs= receive-pack"

var scpLike = regexp.MustCompile(`^(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9.-]+:[^/]`)

// TransportOf is the transport a URL names ("file", "ssh", "http",
// "https"), "" for any other.
func TransportOf(url string) string {
	if i := strings.Index(url, "::"); i >= 0 && !strings.Contains(url[:i], "/") {
		return "" // <transport>::<address>: a remote helper
	}
	if scheme, _, ok := strings.Cut(url, "://"); ok {
		switch strings.ToLower(scheme) {
		case "file", "http", "https":
			return strings.ToLower(scheme)
		case "ssh", "git+ssh", "ssh+git":
			return "ssh"
		}
		return ""
	}
	if strings.HasPrefix(url, "/") || strings.HasPrefix(url, "./") || strings.HasPrefix(url, "../") {
		return "file"
	}
	if scpLike.MatchString(url) && !strings.HasPrefix(url, "-") {
		return "ssh"
	}
	return ""
}

// OverridesEnv is the safe overrides, as environment, for a program
// other than git that runs git in dir (gh): its git children inherit
// them, so the repository's config cannot make them run a program either.
func OverridesEnv(ctx context.Context, dir string) ([]string, error) {
	keys, err := configKeys(ctx, dir, baseEnv(nil))
	if err != nil {
		return nil, err
	}
	return configEnv(overrides(keys, nil)), nil
}
