// Package acp is the client side of the Agent Client Protocol (JSON-RPC 2.0
// over an agent's stdio). One Adapter type drives every ACP agent — Hermes
// (`hermes acp`), Gemini CLI (`gemini --acp`), goose, the ACP wrappers of
// Claude Code and Codex, and the demo agent — differing only in command,
// install hint and a few capability options. Which agents exist, and how
// each is installed, is product knowledge kept beside discovery
// (backend/agents/catalogue.go); this package is the protocol.
//
// Division of labour with the shim: the adapter emits what the agent says
// (token.delta, reasoning.*, tool.*, plan.updated, commands/mode/title/usage
// updates, file.changed for client-side writes, approval.requested,
// clarify.requested). It never emits approval.resolved / clarify.resolved
// (the shim commits those before calling RespondApproval/RespondClarify),
// status, error or done.
package acp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/locate"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// Adapter speaks ACP to one kind of agent.
type Adapter struct {
	name, display string
	command       []string
	// alternatives are other programs the agent ships as (a renamed
	// package), tried in order when command's program is not found.
	alternatives [][]string
	installHint  string
	caps         adapter.Capabilities
	env          envNames
	extraDirs    []string
	// answerTimeout bounds the answer to initialize (0: DefaultAnswerTimeout).
	answerTimeout time.Duration
}

// envNames are the variables an agent reads Config.Home, BaseURL and APIKey
// from; empty names are not set.
type envNames struct{ home, baseURL, apiKey string }

var _ adapter.Adapter = (*Adapter)(nil)

// Option configures an Adapter.
type Option func(*Adapter)

// WithInstallHint is shown when the program is missing ("install with …").
func WithInstallHint(hint string) Option { return func(a *Adapter) { a.installHint = hint } }

// WithAlternatives names other command lines the agent ships as (a renamed
// package), used when the default command's program is not found.
func WithAlternatives(cmds ...[]string) Option {
	return func(a *Adapter) { a.alternatives = append(a.alternatives, cmds...) }
}

// WithClarify declares the agent asks questions through ClarifyMethod.
func WithClarify() Option { return func(a *Adapter) { a.caps.Clarify = true } }

// WithModels declares the agent supports switching models mid-session
// (ACP session/set_model).
func WithModels() Option { return func(a *Adapter) { a.caps.Models = true } }

// WithEnv names the variables that carry Config.Home, BaseURL and APIKey to
// the child (e.g. "HERMES_HOME", "", "").
func WithEnv(home, baseURL, apiKey string) Option {
	return func(a *Adapter) { a.env = envNames{home, baseURL, apiKey} }
}

// WithSearchDirs adds directories searched for the program after PATH.
func WithSearchDirs(dirs ...string) Option {
	return func(a *Adapter) { a.extraDirs = append(a.extraDirs, dirs...) }
}

// WithAnswerTimeout replaces DefaultAnswerTimeout (tests use a short one).
func WithAnswerTimeout(d time.Duration) Option { return func(a *Adapter) { a.answerTimeout = d } }

// New returns an adapter for an ACP agent started with defaultCommand
// (program and leading arguments; Config.Command overrides it).
func New(name, displayName string, defaultCommand []string, opts ...Option) *Adapter {
	a := &Adapter{
		name: name, display: displayName,
		command: append([]string(nil), defaultCommand...),
		caps:    adapter.Capabilities{Streaming: true, Approvals: true, Resume: true, Cancel: true},
	}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Name is the agent's id.
func (a *Adapter) Name() string { return a.name }

// DisplayName is for people.
func (a *Adapter) DisplayName() string { return a.display }

// Capabilities are static: what the agent can do if its ACP side is as
// advertised. Resume falls back to a new session when the agent turns out
// not to support session/load.
func (a *Adapter) Capabilities() adapter.Capabilities { return a.caps }

func (a *Adapter) commandFor(cfg adapter.Config) []string {
	if len(cfg.Command) > 0 {
		return cfg.Command
	}
	for _, alt := range a.alternatives {
		if len(a.command) > 0 && len(alt) > 0 {
			if _, err := a.lookCommand(a.command[0]); err == nil {
				break
			}
			if _, err := a.lookCommand(alt[0]); err == nil {
				return alt
			}
		}
	}
	return a.command
}

// Health finds the program and asks it the ACP handshake (health.go),
// bounded by ctx and HealthHandshakeTimeout.
func (a *Adapter) Health(ctx context.Context, cfg adapter.Config) adapter.Health {
	cmd := a.commandFor(cfg)
	if len(cmd) == 0 {
		return adapter.Health{Message: a.display + " has no command configured."}
	}
	path, err := a.lookCommand(cmd[0])
	if err != nil {
		return adapter.Health{Message: a.notFound(cmd[0])}
	}
	return a.handshakeHealth(ctx, path, cmd[1:], cfg)
}

func (a *Adapter) notFound(program string) string {
	msg := fmt.Sprintf("%s not found (looked for %q on PATH and in the usual install folders)", a.display, program)
	if a.installHint != "" {
		msg += " — " + a.installHint
	}
	return msg
}

// lookCommand resolves a program: a path is taken as is; a bare name is
// looked up on PATH, then in the folders installers commonly use, which a
// desktop app launched from a menu often lacks on its PATH.
func (a *Adapter) lookCommand(program string) (string, error) {
	if strings.ContainsRune(program, filepath.Separator) || strings.ContainsRune(program, '/') {
		if err := checkExecutable(program); err != nil {
			return "", err
		}
		return program, nil
	}
	if p, err := exec.LookPath(program); err == nil {
		return p, nil
	}
	for _, dir := range append(a.extraDirs, locate.UsualDirs()...) {
		p := filepath.Join(dir, program)
		if runtime.GOOS == "windows" {
			for _, ext := range []string{".exe", ".cmd", ".bat"} {
				if checkExecutable(p+ext) == nil {
					return p + ext, nil
				}
			}
			continue
		}
		if checkExecutable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", program, adapter.ErrNotInstalled)
}

func checkExecutable(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("%s: %w", p, adapter.ErrNotInstalled)
	}
	if st.IsDir() || (runtime.GOOS != "windows" && st.Mode()&0o111 == 0) {
		return fmt.Errorf("%s is not an executable file: %w", p, adapter.ErrNotInstalled)
	}
	return nil
}

// childEnv builds the agent's environment: ours, the request's context as
// HERMESDESK_* variables, the configured model endpoint, then Config.Env
// (last, so a person's setting wins). This process's environment is never
// modified.
func (a *Adapter) childEnv(req adapter.StartRequest) []string {
	env := os.Environ()
	add := func(k, v string) {
		if k != "" && v != "" {
			env = append(env, k+"="+v)
		}
	}
	add("HERMESDESK_SESSION_ID", req.SessionID)
	add("HERMESDESK_WORKSPACE", req.Workspace)
	add("HERMESDESK_PROFILE", req.Profile)
	add("HERMESDESK_MODEL", req.Model)
	add("HERMESDESK_PROVIDER", req.Provider)
	add("HERMESDESK_TOOLSETS", strings.Join(req.Toolsets, ","))
	add(a.env.home, req.Config.Home)
	add(a.env.baseURL, req.Config.BaseURL)
	add(a.env.apiKey, req.Config.APIKey)
	return append(env, req.Config.Env...)
}

// Start launches the agent, initializes ACP and opens (or loads) the
// session. On any failure the child is stopped before returning.
func (a *Adapter) Start(ctx context.Context, req adapter.StartRequest, host adapter.Host) (adapter.Conn, error) {
	if host.Launcher == nil {
		return nil, errors.New("acp: no launcher")
	}
	cmd := a.commandFor(req.Config)
	if len(cmd) == 0 {
		return nil, fmt.Errorf("acp: %s has no command: %w", a.name, adapter.ErrNotInstalled)
	}
	path, err := a.lookCommand(cmd[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.notFound(cmd[0]), err)
	}
	if req.Workspace == "" {
		return nil, errors.New("acp: a workspace is required")
	}
	ws, err := openWorkspace(req.Workspace)
	if err != nil {
		return nil, fmt.Errorf("acp: %w", err)
	}
	env := a.childEnv(req)
	proc, err := host.Launcher.Launch(ctx, adapter.ProcSpec{Path: path, Args: cmd[1:], Dir: ws.dir, Env: env})
	if err != nil {
		ws.Close()
		return nil, fmt.Errorf("acp: starting %s: %w", a.display, err)
	}
	c := newConn(a, proc, ws, env, host)
	c.command = cmd
	if err := c.handshake(ctx, req); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func clipString(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
