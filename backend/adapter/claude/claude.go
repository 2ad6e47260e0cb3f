// Package claude drives Claude Code headless: `claude -p` with stream-json
// on stdin and stdout and the stdio permission-prompt tool, so tool
// approvals arrive as control requests we answer through the same pipe.
package claude

import (
	"context"
	"errors"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"io"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/agentcfg"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/locate"
)

// Name is the agent id.
const Name = "claude"

// Adapter is the Claude Code adapter.
type Adapter struct {
	// installHint says how to install the CLI ("install with: …"); the
	// agent catalogue (backend/agents) supplies it.
	installHint string
}

// Option configures an Adapter.
type Option func(*Adapter)

// WithInstallHint is shown after "… not found — " when the CLI is missing.
func WithInstallHint(hint string) Option { return func(a *Adapter) { a.installHint = hint } }

var _ adapter.Adapter = Adapter{}

// New returns the adapter.
func New(opts ...Option) Adapter {
	var a Adapter
	for _, o := range opts {
		o(&a)
	}
	return a
}

// Name implements adapter.Adapter.
func (Adapter) Name() string { return Name }

// DisplayName implements adapter.Adapter.
func (Adapter) DisplayName() string { return "Claude Code" }

// Capabilities implements adapter.Adapter.
func (Adapter) Capabilities() adapter.Capabilities {
	return adapter.Capabilities{Streaming: true, Approvals: true, Resume: true, Cancel: true, Models: true}
}

// probe checks the CLI for Health.
func (a Adapter) probe() locate.Probe {
	return locate.Probe{Program: "claude", NPMPackage: "@anthropic-ai/claude-code", DisplayName: "Claude Code", InstallHint: a.notFound()}
}

// notFound is the message when the CLI is missing.
func (a Adapter) notFound() string { return locate.NotFound("Claude Code", a.installHint) }

// Health implements adapter.Adapter.
func (a Adapter) Health(ctx context.Context, cfg adapter.Config) adapter.Health {
	return a.probe().Health(ctx, cfg.Command, Env(cfg))
}

// Env is the child's environment for cfg: this process's, made quiet and
// offline-friendly, then the configured model endpoint and cfg.Env.
func Env(cfg adapter.Config) []string {
	return agentcfg.Env(cfg,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CONFIG_DIR="+cfg.Home,
		"ANTHROPIC_BASE_URL="+cfg.BaseURL,
		"ANTHROPIC_API_KEY="+cfg.APIKey,
	)
}

// Args is the command line after the program for req.
func Args(req adapter.StartRequest, sessionID string, resume bool) []string {
	args := []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
		"--include-partial-messages", "--permission-prompt-tool", "stdio"}
	switch f := forkOf(req); {
	case resume:
		args = append(args, "--resume", sessionID)
	case f != nil:
		// A native fork (docs/ARCHITECTURE.md §Checkpoints): a new session
		// sessionID holding f.From's conversation up to f.At.
		args = append(args, "--resume", f.From, "--fork-session", "--session-id", sessionID)
		if f.At != "" {
			args = append(args, "--resume-session-at", f.At)
		}
	default:
		args = append(args, "--session-id", sessionID)
	}
	if req.Model != "" {
		args = append(args, "--model", req.Model)
	}
	return args
}

// startTimeout bounds the initialize handshake.
const startTimeout = 30 * time.Second

// Start implements adapter.Adapter.
func (a Adapter) Start(ctx context.Context, req adapter.StartRequest, host adapter.Host) (adapter.Conn, error) {
	cfg := req.Config
	path, err := locate.Find(cfg.Command, "claude")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.notFound(), adapter.ErrNotInstalled)
	}
	sid, resume := req.NativeSessionID, req.NativeSessionID != ""
	if !resume {
		// Choosing the id ourselves makes it known at Start, before the
		// CLI's init frame (which only comes with the first message).
		sid = uuid.NewString()
	}
	args := append(append([]string{}, cfg.Command[min(1, len(cfg.Command)):]...), Args(req, sid, resume)...)
	proc, err := host.Launcher.Launch(ctx, adapter.ProcSpec{Path: path, Args: args, Dir: req.Workspace, Env: Env(cfg)})
	if err != nil {
		return nil, fmt.Errorf("claude: launch: %w", err)
	}
	c := newConn(proc, sid, req.Workspace, host.Log)
	c.forked = !resume && forkOf(req) != nil
	go c.read()
	ictx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := c.control(ictx, map[string]any{"subtype": "initialize"}); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("claude: initialize: %w", err)
	}
	return c, nil
}

// logf writes a diagnostic record to the run's log, in the shim's slog
// text format (one format per file: docs/ARCHITECTURE.md §Logs).
func logf(w io.Writer, format string, args ...any) {
	procio.Logf(w, "claude", format, args...)
}

var errClosed = errors.New("claude: connection closed")

func trimErr(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}
