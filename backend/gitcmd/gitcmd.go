// Package gitcmd is the one place that builds and runs git commands
// (docs/ARCHITECTURE.md §Security, "Git in a project"). A repository's own
// config, its hooks and the person's global config can all name programs
// for git to run (hooks, fsmonitor, filters, diff drivers, pagers,
// credential helpers, ...); a project shared as an archive, or an agent's
// plain file edit, can plant them. Every command run here:
//
//   - starts from a clean environment (no inherited GIT_* variable, HOME
//     and the system and global config pointing nowhere);
//   - carries overrides, at command-line priority, for every key that can
//     make git run a program, including the per-name ones (filter.<x>.clean,
//     diff.<x>.textconv, ...) that the repository's config actually defines,
//     read from that config before the command runs (or that reading
//     again while every file that decided it is unchanged: configcache.go);
//   - runs in its own process group with a bounded wait, so a timeout or a
//     cancel ends it and every child it started.
package gitcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Cmd is one git command.
type Cmd struct {
	// Dir is where git runs (the repository is found from there).
	Dir string
	// Args are git's arguments, the subcommand first.
	Args []string
	// Env adds variables for this command only: GIT_INDEX_FILE,
	// GIT_OBJECT_DIRECTORY and the like. Nothing else is inherited.
	Env []string
	// Config adds overrides (key=value) on top of the safe ones; a key of
	// the safe set cannot be loosened this way.
	Config []string
	// Stdin feeds the command (nil: empty).
	Stdin io.Reader
	// MaxOutput, when above 0, keeps only the first MaxOutput bytes of
	// the output (the rest is read and dropped, so git is not blocked);
	// Run then returns ErrOutputCut with what it kept.
	MaxOutput int
}

// ErrOutputCut: the output was longer than Cmd.MaxOutput and was cut.
var ErrOutputCut = errors.New("gitcmd: output cut")

// waitDelay bounds how long a finished or killed git may hold its output
// open through a child that outlived it (a hook's grandchild holding
// stderr would otherwise hang Wait for ever).
const waitDelay = 2 * time.Second

// program is the git that runs; tests may point it elsewhere.
var program = "git"

// Run runs c and returns its standard output. A git that fails gives an
// error naming the subcommand with the first line of its stderr; a
// cancelled or timed-out context ends the whole process group and gives an
// error wrapping ctx.Err().
func Run(ctx context.Context, c Cmd) ([]byte, error) {
	if len(c.Args) == 0 {
		return nil, errors.New("gitcmd: no git subcommand")
	}
	if err := checkVersion(ctx); err != nil {
		return nil, err
	}
	env := baseEnv(c.Env)
	keys, err := configKeys(ctx, c.Dir, env)
	if err != nil {
		return nil, err
	}
	env = append(env, configEnv(overrides(keys, c.Config))...)
	return run(ctx, c.Dir, env, c.Stdin, withSafeFlags(c.Args), c.MaxOutput)
}

// Output is Run for a command without extra environment or input, its
// output as a string.
func Output(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := Run(ctx, Cmd{Dir: dir, Args: args})
	return string(out), err
}

// withSafeFlags adds the flags that keep the diff family from running an
// external diff or a textconv filter: unlike the plumbing, these porcelain
// commands honour diff.external and diff.<driver>.command by default.
func withSafeFlags(args []string) []string {
	switch args[0] {
	case "diff", "log", "show":
		out := []string{args[0], "--no-ext-diff", "--no-textconv"}
		return append(out, args[1:]...)
	}
	return args
}

// run starts git in its own process group; a done ctx kills the group
// (startProcessGroup/killGroup, per OS) and waitDelay bounds the wait for
// its output to close.
func run(ctx context.Context, dir string, env []string, stdin io.Reader, args []string, maxOutput int) ([]byte, error) {
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = stdin
	stdout := &capped{max: maxOutput}
	var stderr capped
	stderr.max = 64 << 10
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	startProcessGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = waitDelay
	err := cmd.Run()
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, fmt.Errorf("git %s was stopped: %w", args[0], ctxErr)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			slog.Debug("git failed", "cmd", args[0], "dir", dir, "stderr", msg)
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if len(msg) > 300 {
			msg = msg[:300]
		}
		return nil, &failure{err: fmt.Errorf("git %s failed: %w: %s", args[0], err, msg), stdout: stdout.Bytes()}
	}
	if stdout.cut {
		return stdout.Bytes(), ErrOutputCut
	}
	return stdout.Bytes(), nil
}

// failure is a git that exited with an error. It keeps the standard
// output for the commands whose non-zero exit is an answer (merge-tree's
// 1: conflicts), read back by lastOutput.
type failure struct {
	err    error
	stdout []byte
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// lastOutput is the standard output a failed command printed.
func lastOutput(err error) []byte {
	var f *failure
	if errors.As(err, &f) {
		return f.stdout
	}
	return nil
}

// capped keeps the first max bytes written (all when max is 0) and drops
// the rest, never failing a write: a failed write would stop the copy
// from git's pipe and leave git blocked on it. The buffer is a field, not
// embedded: an embedded bytes.Buffer's ReadFrom would bypass Write.
type capped struct {
	buf bytes.Buffer
	max int
	cut bool
}

func (c *capped) Write(p []byte) (int, error) {
	if c.max > 0 {
		if room := c.max - c.buf.Len(); len(p) > room {
			c.cut = true
			if room > 0 {
				c.buf.Write(p[:room])
			}
			return len(p), nil
		}
	}
	return c.buf.Write(p)
}

func (c *capped) Bytes() []byte  { return c.buf.Bytes() }
func (c *capped) String() string { return c.buf.String() }

// baseEnv is the environment every git command gets: nothing of the
// person's GIT_* variables (GIT_DIR, GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND,
// GIT_CONFIG_PARAMETERS, ...), no system or global config, no prompts, no
// editor, no pager, no transport. extra comes last.
func baseEnv(extra []string) []string {
	env := []string{
		"HOME=" + os.DevNull,
		"XDG_CONFIG_HOME=" + os.DevNull,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		// Empty is set: git then runs neither core.askPass nor SSH_ASKPASS.
		"GIT_ASKPASS=",
		// ":" is git's own "no editor".
		"GIT_EDITOR=:",
		"GIT_SEQUENCE_EDITOR=:",
		"GIT_PAGER=cat",
		// A list naming no protocol: every transport (ext::, ssh, file, ...)
		// is refused whatever protocol.*.allow says. The app's git commands
		// are all local; one that must reach a remote gets its own door.
		"GIT_ALLOW_PROTOCOL=none",
		"GIT_PROTOCOL_FROM_USER=0",
		"GIT_NO_LAZY_FETCH=1",
		"LC_ALL=C",
		"LANG=C",
	}
	for _, name := range passedThrough {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return append(env, extra...)
}

// passedThrough are the only variables of the app's environment git sees:
// where programs and temporary files are, and what Windows needs to start
// a process at all.
var passedThrough = []string{"PATH", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "SystemRoot", "WINDIR"}

// configEnv passes overrides as GIT_CONFIG_COUNT/KEY/VALUE (command-line
// priority, like -c) rather than -c: a key's subsection may hold "=",
// which -c would split on.
func configEnv(kv [][2]string) []string {
	env := []string{fmt.Sprintf("GIT_CONFIG_COUNT=%d", len(kv))}
	for i, p := range kv {
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i, p[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i, p[1]))
	}
	return env
}
