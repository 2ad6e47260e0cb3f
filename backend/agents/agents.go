// Package agents is the default agent registry: agent name → adapter, and
// each agent's adapter.Config resolved from the person's settings (journal
// key "agents.<name>").
package agents

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/claude"
	"github.com/hermesdesk/hermesdesk/backend/adapter/codex"
	"github.com/hermesdesk/hermesdesk/backend/adapter/command"
	"github.com/hermesdesk/hermesdesk/backend/adapter/hermes"
	"github.com/hermesdesk/hermesdesk/backend/adapter/openai"
)

// Config says what the registry needs to know about this program.
type Config struct {
	// Executable is the hermesdesk binary; the demo agent runs as
	// `<Executable> demo-agent`. Shims pass their own (per-version) path.
	Executable string
}

// Default returns the registry every shim and the app use.
func Default(cfg Config) *adapter.Registry {
	r := adapter.NewRegistry()
	// ACP agents: the demo agent, Hermes (`hermes acp`), Gemini CLI
	// (`gemini --acp`), goose and the ACP wrappers of Claude Code and Codex,
	// all through the one ACP adapter.
	for _, a := range ACPAgents(cfg.Executable) {
		r.Register(a)
	}
	// Native adapters: Claude Code stream-json, Codex app-server, the
	// Hermes chat fallback, OpenAI-compatible HTTP and any command line.
	r.Register(claude.New(claude.WithInstallHint(ClaudeInstall)))
	r.Register(codex.New(codex.WithInstallHint(CodexInstall)))
	r.Register(hermes.New(hermes.WithInstallHint(HermesInstall)))
	r.Register(openai.New())
	r.Register(command.New())
	return r
}

// SettingKey is the journal setting holding an agent's config overrides.
func SettingKey(agent string) string { return "agents." + agent }

// SettingFunc reads one setting's raw JSON; ok is false when unset.
type SettingFunc func(ctx context.Context, key string) (value []byte, ok bool, err error)

// Resolve returns agent's Config: the setting "agents.<agent>" (a JSON
// adapter.Config). Adapters carry their own default commands, so an agent
// without a setting resolves to the zero Config.
func Resolve(ctx context.Context, agent string, get SettingFunc) (adapter.Config, error) {
	var cfg adapter.Config
	if get == nil {
		return cfg, nil
	}
	raw, ok, err := get(ctx, SettingKey(agent))
	if err != nil {
		return cfg, fmt.Errorf("agent %s settings: %w", agent, err)
	}
	if !ok || len(raw) == 0 || string(raw) == "null" {
		return cfg, nil
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return cfg, fmt.Errorf("agent %s settings: %w", agent, err)
	}
	return cfg, nil
}
