// Package codex drives OpenAI Codex through `codex app-server`: JSON-RPC
// over stdio with threads, turns and items, where command and file-change
// approvals arrive as requests we answer.
package codex

import (
	"context"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"io"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/agentcfg"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/locate"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/version"
)

// Name is the agent id.
const Name = "codex"

// Metadata keys of adapter.StartRequest this adapter reads (a person sets
// them in the agent's "options" setting: adapter.Config.Options).
const (
	// MetaSandbox: read-only, workspace-write (default) or danger-full-access.
	// Codex's bubblewrap sandbox needs user namespaces and refuses a
	// CODEX_HOME under the temp dir; where it cannot run, use
	// danger-full-access and rely on approvals.
	MetaSandbox = "sandbox"
	// MetaApprovalPolicy: untrusted (default: ask before anything not
	// known-safe), on-request, on-failure, never.
	MetaApprovalPolicy = "approval_policy"
)

// DefaultModel is used with a custom endpoint when none is configured: codex
// needs a slug it knows to pick its tools and prompts.
const DefaultModel = "gpt-5.5"

// apiKeyEnv carries Config.APIKey to the custom provider.
const apiKeyEnv = "HERMESDESK_CODEX_API_KEY"

// Adapter is the Codex adapter.
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
func (Adapter) DisplayName() string { return "Codex" }

// Capabilities implements adapter.Adapter.
func (Adapter) Capabilities() adapter.Capabilities {
	return adapter.Capabilities{Streaming: true, Approvals: true, Resume: true, Cancel: true, Models: true}
}

// probe checks the CLI for Health.
func (a Adapter) probe() locate.Probe {
	return locate.Probe{Program: "codex", NPMPackage: "@openai/codex", DisplayName: "Codex", InstallHint: a.notFound()}
}

// notFound is the message when the CLI is missing.
func (a Adapter) notFound() string { return locate.NotFound("Codex", a.installHint) }

// Health implements adapter.Adapter.
func (a Adapter) Health(ctx context.Context, cfg adapter.Config) adapter.Health {
	return a.probe().Health(ctx, cfg.Command, Env(cfg))
}

// Env is the child's environment for cfg.
func Env(cfg adapter.Config) []string {
	return agentcfg.Env(cfg, "CODEX_HOME="+cfg.Home, apiKeyEnv+"="+cfg.APIKey)
}

// ConfigTOML is the config.toml that points codex at an OpenAI Responses
// endpoint (baseURL is the server root or its /v1) with no retries, update
// checks, analytics or telemetry — quiet and fast to fail offline.
func ConfigTOML(baseURL, model string) string {
	if model == "" {
		model = DefaultModel
	}
	return fmt.Sprintf(`model = %q
model_provider = "hermesdesk"
check_for_update_on_startup = false

[analytics]
enabled = false

[otel]
exporter = "none"
trace_exporter = "none"

[features]
plugins = false
apps = false
unbounded_connection_retries = false

[model_providers.hermesdesk]
name = "Hermes Desk endpoint"
base_url = %q
wire_api = "responses"
env_key = %q
request_max_retries = 0
stream_max_retries = 0
`, model, agentcfg.V1URL(baseURL), apiKeyEnv)
}

// WriteConfig writes ConfigTOML into a private CODEX_HOME. It never touches
// a person's own ~/.codex: the adapter calls it only for a configured Home
// with a BaseURL.
func WriteConfig(home, baseURL, model string) error {
	if err := agentcfg.WritePrivate(home, "config.toml", ConfigTOML(baseURL, model)); err != nil {
		return fmt.Errorf("codex: %w", err)
	}
	return nil
}

const startTimeout = 30 * time.Second

// Start implements adapter.Adapter.
func (a Adapter) Start(ctx context.Context, req adapter.StartRequest, host adapter.Host) (adapter.Conn, error) {
	cfg := req.Config
	path, err := locate.Find(cfg.Command, "codex")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.notFound(), adapter.ErrNotInstalled)
	}
	if cfg.Home != "" && cfg.BaseURL != "" {
		if err := WriteConfig(cfg.Home, cfg.BaseURL, req.Model); err != nil {
			return nil, err
		}
	}
	args := append(append([]string{}, cfg.Command[min(1, len(cfg.Command)):]...), "app-server")
	proc, err := host.Launcher.Launch(ctx, adapter.ProcSpec{Path: path, Args: args, Dir: req.Workspace, Env: Env(cfg)})
	if err != nil {
		return nil, fmt.Errorf("codex: launch: %w", err)
	}
	c := newConn(proc, req.Workspace, host.Log)
	go c.read()
	sctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := c.open(sctx, req); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// open performs the handshake and starts or resumes the thread.
func (c *conn) open(ctx context.Context, req adapter.StartRequest) error {
	if _, err := c.call(ctx, "initialize", map[string]any{
		"clientInfo": map[string]any{"name": "hermesdesk", "title": "Hermes Desk", "version": version.Version},
	}); err != nil {
		return fmt.Errorf("codex: initialize: %w", err)
	}
	if err := c.notify("initialized", nil); err != nil {
		return err
	}
	params := map[string]any{"cwd": req.Workspace, "approvalPolicy": meta(req, MetaApprovalPolicy, "untrusted"),
		"sandbox": meta(req, MetaSandbox, "workspace-write")}
	if req.Model != "" {
		params["model"] = req.Model
	}
	method := "thread/start"
	if req.NativeSessionID != "" {
		method, params["threadId"] = "thread/resume", req.NativeSessionID
	} else if last := c.forkPoint(ctx, req.Fork); last != "" {
		// A native fork (fork.go): a new thread holding the source's
		// turns through last.
		method, params["threadId"], params["lastTurnId"], c.forked = "thread/fork", req.Fork.From, last, true
	}
	var res struct {
		Thread struct {
			ID string `json:"id"`
		} `json:"thread"`
		Model string `json:"model"`
	}
	err := c.callInto(ctx, method, params, &res)
	if err != nil && c.forked {
		// The fork refused: a new thread, and the handover (fork.go).
		logf(c.log, "thread/fork of %s: %v; starting a new thread", req.Fork.From, err)
		delete(params, "threadId")
		delete(params, "lastTurnId")
		method, c.forked = "thread/start", false
		err = c.callInto(ctx, method, params, &res)
	}
	if err != nil {
		return fmt.Errorf("codex: %s: %w", method, err)
	}
	if res.Thread.ID == "" {
		return fmt.Errorf("codex: %s returned no thread id", method)
	}
	c.threadID = res.Thread.ID
	c.mu.Lock()
	c.startModel = res.Model
	c.mu.Unlock()
	c.listModels(ctx, res.Model)
	return nil
}

// modelListTimeout bounds model/list: the picker's list is worth a short
// wait at start, never a failed start.
const modelListTimeout = 5 * time.Second

// listModels asks the app-server for the models it offers (model/list:
// Codex's own presets, answered without the network) and keeps them for the
// first turn's model.updated, for the session header's picker
// (docs/ARCHITECTURE.md §Model picker). Hidden presets stay out.
func (c *conn) listModels(ctx context.Context, current string) {
	ctx, cancel := context.WithTimeout(ctx, modelListTimeout)
	defer cancel()
	var res struct {
		Data []struct {
			ID          string `json:"id"`
			Model       string `json:"model"`
			DisplayName string `json:"displayName"`
			Description string `json:"description"`
			Hidden      bool   `json:"hidden"`
		} `json:"data"`
	}
	if err := c.callInto(ctx, "model/list", map[string]any{}, &res); err != nil {
		logf(c.log, "model/list: %v", err)
		return
	}
	mu := run.ModelUpdated{Model: current}
	for _, m := range res.Data {
		id := m.Model
		if id == "" {
			id = m.ID
		}
		if id != "" && !m.Hidden {
			mu.Available = append(mu.Available, run.ModelOption{ID: id, Name: m.DisplayName, Description: m.Description})
		}
	}
	if mu.Model == "" && len(mu.Available) == 0 {
		return
	}
	c.mu.Lock()
	c.startModels = &mu
	c.mu.Unlock()
}

func meta(req adapter.StartRequest, key, def string) string {
	if v := req.Metadata[key]; v != "" {
		return v
	}
	return def
}

// logf writes a diagnostic record to the run's log, in the shim's slog
// text format (one format per file: docs/ARCHITECTURE.md §Logs).
func logf(w io.Writer, format string, args ...any) {
	procio.Logf(w, "codex", format, args...)
}
