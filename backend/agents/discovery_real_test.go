package agents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

func byName(ss []Status) map[string]Status {
	m := map[string]Status{}
	for _, s := range ss {
		m[s.Name] = s
	}
	return m
}

// With nothing installed anywhere, every CLI agent says how to install it.
func TestDiscoverMissingAgentsSayHowToInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv(ToolsDirEnv, t.TempDir())
	got := byName(Discover(context.Background(), Default(Config{Executable: "/nonexistent/hermesdesk"}), nil))
	for name, want := range map[string]string{
		"claude":      "npm install -g @anthropic-ai/claude-code",
		"codex":       "npm install -g @openai/codex",
		"hermes-chat": `pipx install "hermes-agent[acp]"`,
		"hermes":      "hermes-agent[acp]",
		"gemini":      "@google/gemini-cli",
	} {
		s, ok := got[name]
		if !ok {
			t.Errorf("%s not registered", name)
			continue
		}
		if s.Health.Installed || s.Health.OK || !strings.Contains(s.Health.Message, want) {
			t.Errorf("%s: %+v, want a message with %q", name, s.Health, want)
		}
	}
	if s := got["command"]; s.Health.Installed || s.Health.Message == "" {
		t.Errorf("command with no command line: %+v", s.Health)
	}
}

// With the CLIs from scripts/install-agents.sh, discovery finds them in the
// project's tools dir and reports their versions.
func TestDiscoverInstalledAgents(t *testing.T) {
	tools := agenttest.ToolsDir()
	if tools == "" {
		t.Skip("no .tools dir (run scripts/install-agents.sh)")
	}
	if _, err := os.Stat(filepath.Join(tools, "npm", "node_modules", ".bin", "claude")); err != nil {
		t.Skip("CLIs not installed under .tools")
	}
	t.Setenv(ToolsDirEnv, tools)
	reg := Default(Config{Executable: "/nonexistent/hermesdesk"})
	_ = Discover(context.Background(), reg, nil)
	// Slow checks (a cold `gemini --version`) finish in the background and
	// answer the next call.
	background.Wait()
	got := byName(Discover(context.Background(), reg, nil))
	for _, name := range []string{"claude", "codex", "gemini"} {
		if h := got[name].Health; !h.OK || h.Version == "" || !strings.HasPrefix(h.Path, tools) {
			t.Errorf("%s: %+v", name, h)
		}
	}
	if _, err := os.Stat(filepath.Join(tools, "venv", "bin", "hermes")); err == nil {
		for _, name := range []string{"hermes", "hermes-chat"} {
			if h := got[name].Health; !h.OK || h.Version == "" {
				t.Errorf("%s: %+v", name, h)
			}
		}
	}
}
