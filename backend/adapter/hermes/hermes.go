// Package hermes is the fallback way to run Hermes Agent when its ACP server
// is not wanted or not available: one `hermes chat -q` process per turn,
// resumed with --resume <session id>. Releases with `--format stream-json`
// give structured frames (text, tool_use, tool_result, result); older ones
// (0.19.0, on PyPI for Python 3.11) only have quiet mode, whose stdout is
// the final answer. Hermes' primary adapter is ACP (`hermes acp`).
package hermes

import (
	"context"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"io"
	"strings"
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/agentcfg"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/locate"
)

// Name is the agent id (plain "hermes" is the ACP adapter).
const Name = "hermes-chat"

// MetaYolo, set to "1" in StartRequest.Metadata, passes --yolo: under -q
// Hermes denies dangerous commands (approvals.single_query_mode), and this
// protocol has no way to ask.
const MetaYolo = "yolo"

// Adapter is the Hermes chat fallback adapter.
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
func (Adapter) DisplayName() string { return "Hermes Agent (one-shot chat)" }

// Capabilities implements adapter.Adapter.
func (Adapter) Capabilities() adapter.Capabilities {
	return adapter.Capabilities{Resume: true, Cancel: true, Models: true}
}

// probe checks the CLI for Health.
func (a Adapter) probe() locate.Probe {
	return locate.Probe{Program: "hermes", DisplayName: "Hermes Agent", InstallHint: a.notFound()}
}

// notFound is the message when the CLI is missing.
func (a Adapter) notFound() string { return locate.NotFound("Hermes Agent", a.installHint) }

// Health implements adapter.Adapter.
func (a Adapter) Health(ctx context.Context, cfg adapter.Config) adapter.Health {
	return a.probe().Health(ctx, cfg.Command, Env(cfg))
}

// Env is the child's environment: HERMES_HOME selects the profile.
func Env(cfg adapter.Config) []string {
	return agentcfg.Env(cfg, "HERMES_HOME="+cfg.Home)
}

// HomeConfig is a profile config.yaml pointing Hermes at an
// OpenAI-compatible endpoint (baseURL is the server root or its /v1). It
// also turns off what would reach for the network on every start: the
// tirith scanner download and lazy pip installs of optional tools.
func HomeConfig(baseURL, apiKey, model string) string {
	if model == "" {
		model = "fake-model"
	}
	return fmt.Sprintf(`model:
  provider: custom
  default: %q
  base_url: %q
  api_key: %q
  context_length: 128000
security:
  tirith_enabled: false
  allow_lazy_installs: false
`, model, agentcfg.V1URL(baseURL), apiKey)
}

// WriteHome writes HomeConfig into a private HERMES_HOME (never a person's
// ~/.hermes: the adapter calls it only for a configured Home with a BaseURL).
func WriteHome(home, baseURL, apiKey, model string) error {
	if err := agentcfg.WritePrivate(home, "config.yaml", HomeConfig(baseURL, apiKey, model)); err != nil {
		return fmt.Errorf("hermes: %w", err)
	}
	return nil
}

// streamJSON caches, per program path, whether `hermes chat` has
// --format stream-json.
var streamJSON sync.Map

func supportsStreamJSON(ctx context.Context, env []string, path string) bool {
	if v, ok := streamJSON.Load(path); ok {
		return v.(bool)
	}
	out, _ := locate.Output(ctx, env, path, "chat", "--help")
	ok := strings.Contains(out, "--format")
	streamJSON.Store(path, ok)
	return ok
}

// Start implements adapter.Adapter. Nothing runs until the first turn.
func (a Adapter) Start(ctx context.Context, req adapter.StartRequest, host adapter.Host) (adapter.Conn, error) {
	cfg := req.Config
	path, err := locate.Find(cfg.Command, "hermes")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.notFound(), adapter.ErrNotInstalled)
	}
	if cfg.Home != "" && cfg.BaseURL != "" {
		if err := WriteHome(cfg.Home, cfg.BaseURL, cfg.APIKey, req.Model); err != nil {
			return nil, err
		}
	}
	c := &conn{path: path, prefix: cfg.Command[min(1, len(cfg.Command)):], env: Env(cfg), home: cfg.Home, req: req, host: host,
		sid: req.NativeSessionID, model: req.Model, done: make(chan struct{})}
	c.structured = supportsStreamJSON(ctx, c.env, path)
	return c, nil
}

// logf writes a diagnostic record to the run's log, in the shim's slog
// text format (one format per file: docs/ARCHITECTURE.md §Logs).
func logf(w io.Writer, format string, args ...any) {
	procio.Logf(w, "hermes", format, args...)
}
