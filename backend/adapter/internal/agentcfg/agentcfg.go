// Package agentcfg builds what a native agent CLI is started with besides
// its arguments: its environment and the private config file that points it
// at a configured model endpoint.
package agentcfg

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// Env is this process's environment, then vars ("KEY=value"; one with an
// empty value is left out, so an unset Config field adds nothing), then
// cfg.Env last so a person's own setting wins.
func Env(cfg adapter.Config, vars ...string) []string {
	env := os.Environ()
	for _, v := range vars {
		if k, val, ok := strings.Cut(v, "="); ok && k != "" && val != "" {
			env = append(env, v)
		}
	}
	return append(env, cfg.Env...)
}

// V1URL is baseURL (a server root or its /v1) as its /v1 root, which the
// OpenAI-compatible clients inside the CLIs expect.
func V1URL(baseURL string) string {
	base := strings.TrimRight(baseURL, "/")
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	return base
}

// WritePrivate writes content to dir/name, readable by this user only (it
// may hold an API key), creating dir (0700) first.
func WritePrivate(dir, name, content string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("config dir: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		return fmt.Errorf("write config: %w", err)
	}
	return nil
}
