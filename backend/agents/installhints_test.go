package agents

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every install hint says "install with: " and then one command, worded
// the same way for each package manager (pipx install, npm install -g),
// and the onboarding page (frontend/src) offers the very same commands.
func TestInstallHintsSpeakOneWording(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv(ToolsDirEnv, t.TempDir())
	got := byName(Discover(context.Background(), Default(Config{Executable: "/nonexistent/hermesdesk"}), nil))
	cmds := map[string]string{}
	for name, s := range got {
		_, cmd, ok := strings.Cut(s.Health.Message, "install with: ")
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(cmd, "npm install -g @"), strings.HasPrefix(cmd, `pipx install "`):
			cmds[name] = cmd
		default:
			t.Errorf("%s: install command %q; want npm install -g … or pipx install …", name, cmd)
		}
	}
	for _, name := range []string{"claude", "codex", "gemini", "hermes", "hermes-chat", "claude-acp", "codex-acp"} {
		if cmds[name] == "" {
			t.Errorf("%s gives no install command: %q", name, got[name].Health.Message)
		}
	}

	// The onboarding page shows agents.Onboarding through the generated
	// contract (backend/contract), so it offers what Onboarding holds.
	offered := map[string]string{}
	for _, s := range Onboarding {
		offered[s.ID] = s.Command
	}
	for _, name := range []string{"claude", "codex", "gemini", "hermes"} {
		if offered[name] != cmds[name] {
			t.Errorf("the onboarding page (agents.Onboarding) offers %s's install command as %q, the agent says %q", name, offered[name], cmds[name])
		}
	}
	src := frontendSource(t)
	for _, other := range []string{"npm i -g", "pip install "} {
		if strings.Contains(src, other) {
			t.Errorf("frontend/src words an install as %q; the app says npm install -g / pipx install", other)
		}
	}
}

// frontendSource is every non-test .ts/.tsx file of frontend/src.
func frontendSource(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir("../../frontend/src", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.Contains(d.Name(), ".test.") || !(strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) {
			return nil
		}
		data, err := os.ReadFile(p)
		b.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
