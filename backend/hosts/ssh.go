package hosts

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// SSH runs the person's own `ssh` program: their ~/.ssh/config aliases,
// keys, agent and known_hosts; never a reimplementation
// (docs/ARCHITECTURE.md §Hosts, security).
type SSH struct {
	// Program is the ssh client (default "ssh" on PATH).
	Program string
	// Args come first on every command line, e.g. `-F FILE` for another
	// client config (HERMESDESK_SSH_CONFIG; the tests' sshd).
	Args []string
	// ControlDir is a private (0700) folder for the multiplexed
	// connection's ControlPath; empty: no multiplexing.
	ControlDir string
	// ConnectTimeout bounds connecting (default 10 s).
	ConnectTimeout time.Duration
}

func (s SSH) program() string {
	if s.Program == "" {
		return "ssh"
	}
	return s.Program
}

// options are the -o flags every ssh Hermes Desk runs gets. Given on the
// command line they win over the person's config: no prompt can hang
// (BatchMode), and a host key is checked strictly by ssh itself — an
// unknown or changed key is an error, never accepted for the person.
func (s SSH) options(target string) []string {
	t := s.ConnectTimeout
	if t <= 0 {
		t = 10 * time.Second
	}
	o := append([]string{}, s.Args...)
	o = append(o,
		"-o", "BatchMode=yes",
		"-o", "StrictHostKeyChecking=yes",
		"-o", "ConnectTimeout="+strconv.Itoa(int(t/time.Second)),
		"-o", "ServerAliveInterval=15",
		"-o", "ServerAliveCountMax=3",
	)
	if s.ControlDir != "" {
		// Commands ride the link's connection when it is up, else connect
		// on their own; only the link is the master (link.go).
		o = append(o, "-o", "ControlPath="+s.controlPath(target), "-o", "ControlMaster=no")
	}
	return o
}

// controlPath is target's master socket in ControlDir, named by a short
// hash of the target: one master per target (its link), and short for
// the 104-byte socket path limit of macOS, whose runtime dir is under a
// long temp dir (ssh's own %C is 40 characters, and ssh adds 17 while
// binding).
func (s SSH) controlPath(target string) string { return filepath.Join(s.ControlDir, shortHash(target)) }

// shortHash names a socket after s in 8 hex characters.
func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:4])
}

// Command is ssh running script with sh on target (`sh -c 'script'`: the
// person's login shell only has to start sh).
func (s SSH) Command(ctx context.Context, target, script string) *exec.Cmd {
	args := append(s.options(target), "--", target, "sh -c "+shellQuote(script))
	return exec.CommandContext(ctx, s.program(), args...)
}

// Run runs script on target with stdin (nil: none) and returns its
// stdout. ssh's own failures come back as *Error with the problem in
// words; a script that exits non-zero as ProblemRemote with its stderr.
func (s SSH) Run(ctx context.Context, target, script string, stdin io.Reader) ([]byte, error) {
	cmd := s.Command(ctx, target, script)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if err == nil {
		return out.Bytes(), nil
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, &Error{Problem: ProblemNoSSH, Target: target, Sentence: sentence(ProblemNoSSH, target), Detail: err.Error()}
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("ssh %s: %w", target, ctx.Err())
		}
		return nil, fmt.Errorf("run ssh for %s: %w", target, err)
	}
	if e := classify(target, ee.ExitCode(), errb.String()); e != nil {
		return out.Bytes(), e
	}
	return out.Bytes(), &Error{Problem: ProblemRemote, Target: target, Sentence: sentence(ProblemRemote, target),
		Detail: fmt.Sprintf("exit %d: %s", ee.ExitCode(), strings.TrimSpace(errb.String()))}
}

// shellQuote quotes s as one word for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// CheckTarget refuses a target ssh could read as an option or that holds
// spaces or control characters: `user@host`, `host` or an alias, at most
// 255 bytes.
func CheckTarget(target string) error {
	bad := func(why string) error {
		return &Error{Problem: ProblemInvalid, Target: target,
			Sentence: fmt.Sprintf("%q is not a host: %s. Give user@host or a Host alias from ~/.ssh/config.", target, why)}
	}
	switch {
	case target == "":
		return bad("it is empty")
	case len(target) > 255:
		return bad("it is longer than 255 characters")
	case strings.HasPrefix(target, "-"):
		return bad("it starts with a dash")
	case strings.IndexFunc(target, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\'' || r == '"' }) >= 0:
		return bad("it holds spaces, quotes or control characters")
	case strings.Count(target, "@") > 1 || strings.HasSuffix(target, "@") || strings.HasPrefix(target, "@"):
		return bad("it has a misplaced @")
	}
	return nil
}

// EnvSSHConfig names another ssh client config file (`ssh -F`) for every
// ssh Hermes Desk runs; unset, ssh reads the person's ~/.ssh/config.
const EnvSSHConfig = "HERMESDESK_SSH_CONFIG"

// SSHFromEnv is the person's ssh, with EnvSSHConfig's file when set.
func SSHFromEnv(getenv func(string) string) SSH {
	if f := getenv(EnvSSHConfig); f != "" {
		return SSH{Args: []string{"-F", f}}
	}
	return SSH{}
}
