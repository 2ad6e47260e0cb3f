package agenttest

import (
	"os"
	"path/filepath"
	"testing"
)

// The real-CLI tests find the checkout's .tools from their package dir, or
// the dir HERMESDESK_TOOLS names (as `make test-agents` sets it).
func TestToolsDir(t *testing.T) {
	t.Setenv("HERMESDESK_TOOLS", "")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(wd))), ".tools")
	if got := ToolsDir(); got != want {
		t.Fatalf("ToolsDir() = %q, want %q", got, want)
	}
	t.Setenv("HERMESDESK_TOOLS", "/opt/t")
	if got := ToolsDir(); got != "/opt/t" {
		t.Fatalf("explicit: %q", got)
	}
}
