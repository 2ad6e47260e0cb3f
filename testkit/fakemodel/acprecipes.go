package fakemodel

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// Recipes for the third-party ACP agents of shared/reference/acp-agents.md:
// each writes the agent's config under home (the child's HOME), pointing
// it at baseURL with telemetry and update checks off, and returns the
// Config that runs the agent's ACP server (bin is its installed program).
// Nothing names the person's own dotfiles.

// FakeModelID is the model id every recipe configures; /models lists it.
const FakeModelID = "fake-model"

// ACPRecipe prepares home for one agent and returns its Config.
type ACPRecipe func(bin, home, baseURL string) (adapter.Config, error)

// ACPRecipes are the recipes by agent id (the id a person would add the
// agent under).
var ACPRecipes = map[string]ACPRecipe{
	"claude-agent-acp": ClaudeAgentACPConfig,
	"codex-acp":        CodexACPConfig,
	"opencode":         OpenCodeACPConfig,
	"qwen":             QwenACPConfig,
	"copilot":          CopilotACPConfig,
	"vibe":             VibeACPConfig,
	"kimi":             KimiACPConfig,
}

func writeFiles(home string, files map[string]string) error {
	for rel, content := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return fmt.Errorf("recipe: %w", err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			return fmt.Errorf("recipe: %w", err)
		}
	}
	return nil
}

// ClaudeAgentACPConfig runs claude-agent-acp against the Anthropic
// Messages endpoint. As root Claude Code wants IS_SANDBOX=1.
func ClaudeAgentACPConfig(bin, home, baseURL string) (adapter.Config, error) {
	cfgDir := filepath.Join(home, ".claude")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		return adapter.Config{}, fmt.Errorf("recipe: %w", err)
	}
	return adapter.Config{Command: []string{bin}, Env: []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + cfgDir,
		"ANTHROPIC_BASE_URL=" + baseURL, "ANTHROPIC_API_KEY=dummy", "IS_SANDBOX=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_MAX_RETRIES=0"}}, nil
}

// CodexModel is the model codex-acp is configured with: a slug Codex
// knows, else every turn begins with its "Model metadata … not found"
// warning as agent text. The fake server answers any model.
const CodexModel = "gpt-5.5"

// CodexACPConfig runs codex-acp with a Responses provider. Without
// untrusted approvals and a writable sandbox it starts read-only and the
// command silently fails. CODEX_HOME must not be inside $TMPDIR.
func CodexACPConfig(bin, home, baseURL string) (adapter.Config, error) {
	ch := filepath.Join(home, ".codex")
	toml := `approval_policy = "untrusted"
sandbox_mode = "workspace-write"
model = "` + CodexModel + `"
model_provider = "local"
check_for_update_on_startup = false
[analytics]
enabled = false
[model_providers.local]
name = "local"
base_url = "` + baseURL + `/v1"
wire_api = "responses"
env_key = "LOCAL_API_KEY"
request_max_retries = 0
stream_max_retries = 0
`
	if err := writeFiles(ch, map[string]string{"config.toml": toml}); err != nil {
		return adapter.Config{}, err
	}
	return adapter.Config{Command: []string{bin}, Env: []string{"HOME=" + home, "CODEX_HOME=" + ch, "LOCAL_API_KEY=dummy"}}, nil
}

// OpenCodeACPConfig runs `opencode acp` with an OpenAI-compatible
// provider. OpenCode runs bash without asking unless told to ask.
func OpenCodeACPConfig(bin, home, baseURL string) (adapter.Config, error) {
	cfg := `{"$schema": "https://opencode.ai/config.json", "autoupdate": false, "share": "disabled",
 "model": "local/` + FakeModelID + `", "small_model": "local/` + FakeModelID + `",
 "provider": {"local": {"npm": "@ai-sdk/openai-compatible", "name": "Local",
   "options": {"baseURL": "` + baseURL + `/v1", "apiKey": "dummy"},
   "models": {"` + FakeModelID + `": {"name": "Fake model", "tool_call": true}}}},
 "permission": {"bash": "ask", "edit": "ask"}}
`
	if err := writeFiles(home, map[string]string{".config/opencode/opencode.json": cfg}); err != nil {
		return adapter.Config{}, err
	}
	return adapter.Config{Command: []string{bin, "acp"}, Env: []string{"HOME=" + home,
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_SHARE=1"}}, nil
}

// QwenACPConfig runs `qwen --acp` with OpenAI auth from the environment.
func QwenACPConfig(bin, home, baseURL string) (adapter.Config, error) {
	settings := `{"security": {"auth": {"selectedType": "openai"}},
 "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
 "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}}
`
	if err := writeFiles(home, map[string]string{".qwen/settings.json": settings}); err != nil {
		return adapter.Config{}, err
	}
	return adapter.Config{Command: []string{bin, "--acp"}, Env: []string{"HOME=" + home,
		"OPENAI_BASE_URL=" + baseURL + "/v1", "OPENAI_API_KEY=dummy", "OPENAI_MODEL=" + FakeModelID}}, nil
}

// CopilotACPConfig runs `copilot --acp` on a bring-your-own provider: no
// GitHub login.
func CopilotACPConfig(bin, home, baseURL string) (adapter.Config, error) {
	return adapter.Config{Command: []string{bin, "--acp"}, Env: []string{"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"COPILOT_PROVIDER_BASE_URL=" + baseURL + "/v1", "COPILOT_PROVIDER_TYPE=openai",
		"COPILOT_PROVIDER_API_KEY=dummy", "COPILOT_MODEL=" + FakeModelID}}, nil
}

// VibeACPConfig runs Mistral Vibe's `vibe-acp` with a generic OpenAI
// provider.
func VibeACPConfig(bin, home, baseURL string) (adapter.Config, error) {
	vh := filepath.Join(home, ".vibe")
	toml := `active_model = "local"
enable_telemetry = false
enable_update_checks = false
[[providers]]
name = "local"
api_base = "` + baseURL + `/v1"
api_key_env_var = "LOCAL_API_KEY"
api_style = "openai"
backend = "generic"
[[models]]
name = "` + FakeModelID + `"
provider = "local"
alias = "local"
`
	if err := writeFiles(vh, map[string]string{"config.toml": toml}); err != nil {
		return adapter.Config{}, err
	}
	return adapter.Config{Command: []string{bin}, Env: []string{"HOME=" + home, "VIBE_HOME=" + vh, "LOCAL_API_KEY=dummy"}}, nil
}

// KimiACPConfig runs `kimi acp` with an OpenAI-compatible provider. Kimi's
// ACP server demands a login even so; KimiLogin stands in for one.
func KimiACPConfig(bin, home, baseURL string) (adapter.Config, error) {
	sd := filepath.Join(home, ".kimi")
	toml := `default_model = "local"
telemetry = false
[providers.local]
type = "openai_legacy"
base_url = "` + baseURL + `/v1"
api_key = "dummy"
[models.local]
provider = "local"
model = "` + FakeModelID + `"
max_context_size = 128000
`
	if err := writeFiles(sd, map[string]string{"config.toml": toml}); err != nil {
		return adapter.Config{}, err
	}
	return adapter.Config{Command: []string{bin, "acp"}, Env: []string{"HOME=" + home, "KIMI_SHARE_DIR=" + sd}}, nil
}

// KimiLogin writes the dummy credentials that stand in for `kimi login`
// under a KimiACPConfig home: tokens that expire far ahead.
func KimiLogin(cfg adapter.Config) error {
	sd := ""
	for _, kv := range cfg.Env {
		if v, ok := strings.CutPrefix(kv, "KIMI_SHARE_DIR="); ok {
			sd = v
		}
	}
	if sd == "" {
		return fmt.Errorf("recipe: not a Kimi config")
	}
	exp := time.Now().Add(365 * 24 * time.Hour).Unix()
	cred := fmt.Sprintf(`{"access_token": "dummy", "refresh_token": "dummy", "expires_at": %d, "token_type": "Bearer"}`, exp)
	return writeFiles(sd, map[string]string{"credentials/kimi-code.json": cred})
}
