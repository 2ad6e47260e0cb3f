package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/version"
)

// Health is the ACP handshake, bounded as callers bound it
// (adapter.HealthTimeout): docs/ARCHITECTURE.md §Agent health. The slow start is the fake
// agent's fakeagent.StartDelayEnv (not imported: it imports this package).
func TestHealthByHandshake(t *testing.T) {
	dir := t.TempDir()
	// An agent without --version (codex-acp): the flag fails, ACP works.
	noVersion := filepath.Join(dir, "no-version-acp")
	script := "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = --version ] && { echo 'error: unexpected argument --version' >&2; exit 2; }; done\nexec " + fakeAgentBin + " demo-agent\n"
	if err := os.WriteFile(noVersion, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		command []string
		env     []string
		ok      bool
		says    string // in the message when not ok
	}{
		{"answers initialize", []string{fakeAgentBin, "demo-agent"}, nil, true, ""},
		{"has no --version", []string{noVersion}, nil, true, ""},
		{"starts slowly (2.5 s, as vibe-acp)", []string{fakeAgentBin, "demo-agent"}, []string{"HERMESDESK_FAKEAGENT_START_DELAY=2500ms"}, true, ""},
		{"exits at once", []string{"/bin/false"}, nil, false, "exited before answering"},
		{"speaks something else", []string{"/bin/sh", "-c", "echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"no such method\"}}'; sleep 5"}, nil, false, "refused the ACP handshake: no such method"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), adapter.HealthTimeout)
			defer cancel()
			a := New("x", "X agent", c.command)
			h := a.Health(ctx, adapter.Config{Env: c.env})
			if !h.Installed {
				t.Fatalf("health = %+v; want installed", h)
			}
			if c.ok {
				if !h.OK || h.Version != version.Version {
					t.Fatalf("health = %+v; want OK with the handshake's agentInfo version %q", h, version.Version)
				}
				return
			}
			if h.OK || !strings.Contains(h.Message, c.says) || !strings.HasPrefix(h.Message, "X agent") {
				t.Fatalf("health = %+v; want not OK, saying %q", h, c.says)
			}
		})
	}
}

// The claude-acp entry finds Claude's ACP wrapper under its new name and
// its old one.
func TestAlternativeCommandIsFoundWhenTheDefaultIsMissing(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old-name-acp")
	if err := os.WriteFile(old, []byte("#!/bin/sh\nexec "+fakeAgentBin+" demo-agent\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	a := New("x", "X agent", []string{"hermesdesk-new-name-acp"}, WithAlternatives([]string{"old-name-acp"}))
	ctx, cancel := context.WithTimeout(context.Background(), adapter.HealthTimeout)
	defer cancel()
	if h := a.Health(ctx, adapter.Config{}); !h.OK || h.Path != old {
		t.Fatalf("health = %+v; want the old name found at %s", h, old)
	}
	if h := New("y", "Y agent", []string{"hermesdesk-new-name-acp"}).Health(ctx, adapter.Config{}); h.Installed {
		t.Fatalf("without the alternative: %+v; want not installed", h)
	}
}
