package fakemodel

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/hermes"
)

// Recipes: how to point each real agent CLI at a Server, verified on this
// machine kind (see docs in shared/reference/agents.md). Each writes its
// config under a private home and returns an adapter.Config whose Env holds
// everything else, so nothing touches the person's own dotfiles.

// GeminiModel is passed with -m: the default "auto" first asks a router
// model for JSON, an extra round trip for nothing.
const GeminiModel = "gemini-2.5-flash"

// GeminiSettings is ~/.gemini/settings.json for API-key auth against a base
// URL (a base URL alone selects a "gateway" auth headless mode rejects),
// with telemetry, update checks and retries off.
func GeminiSettings() []byte {
	b, _ := json.MarshalIndent(map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general": map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true, "maxAttempts": 1,
			"retryFetchErrors": false},
	}, "", "  ")
	return b
}

// GeminiACPConfig prepares home (used as HOME for the child) and returns the
// Config that runs `<gemini> --acp -m GeminiModel` against baseURL through
// the ACP adapter.
func GeminiACPConfig(gemini, home, baseURL string) (adapter.Config, error) {
	dir := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return adapter.Config{}, fmt.Errorf("gemini home: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), GeminiSettings(), 0o600); err != nil {
		return adapter.Config{}, fmt.Errorf("gemini settings: %w", err)
	}
	return adapter.Config{
		Command: []string{gemini, "--acp", "-m", GeminiModel},
		Env: []string{"HOME=" + home, "GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL=" + baseURL,
			// Without trust a headless Gemini CLI exits 55 in a new folder.
			"GEMINI_CLI_TRUST_WORKSPACE=true"},
	}, nil
}

// HermesACPConfig prepares a private HERMES_HOME under home pointing at the
// server's Chat Completions endpoint and returns the Config that runs
// `<hermes> acp` through the ACP adapter.
func HermesACPConfig(hermesBin, home, baseURL string) (adapter.Config, error) {
	hh := filepath.Join(home, ".hermes")
	if err := hermes.WriteHome(hh, baseURL, "dummy", ""); err != nil {
		return adapter.Config{}, err
	}
	return adapter.Config{
		Command: []string{hermesBin, "acp"},
		Home:    hh,
		Env:     []string{"HOME=" + home, "HERMES_HOME=" + hh},
	}, nil
}
