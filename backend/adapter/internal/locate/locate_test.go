package locate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNPMVersion(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "node_modules", "@x", "cli")
	bin := filepath.Join(root, "node_modules", ".bin")
	for _, d := range []string{filepath.Join(pkg, "dist"), bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@x/cli","version":"1.2.3"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "dist", "index.js"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../@x/cli/dist/index.js", filepath.Join(bin, "x")); err != nil {
		t.Fatal(err)
	}
	if v := NPMVersion(filepath.Join(bin, "x"), "@x/cli"); v != "1.2.3" {
		t.Fatalf("version %q", v)
	}
	if v := NPMVersion(filepath.Join(bin, "x"), "@other/cli"); v != "" {
		t.Fatalf("another package's version: %q", v)
	}
}

func TestFindPrefersConfiguredCommand(t *testing.T) {
	if _, err := Find([]string{"/no/such/program"}, "sh"); err == nil {
		t.Fatal("a missing configured program must not fall back to a search")
	}
	p, err := Find([]string{"sh"}, "ignored")
	if err != nil || filepath.Base(p) != "sh" {
		t.Fatalf("%q %v", p, err)
	}
}

// A program planted in the current folder's .tools dir — even in a checkout
// of this very project — is never found: started from someone else's
// clone, the app must not run what it holds (health checks run --version).
func TestFindIgnoresToolsOfTheCurrentFolder(t *testing.T) {
	checkout := t.TempDir()
	if err := os.WriteFile(filepath.Join(checkout, "go.mod"), []byte("module github.com/hermesdesk/hermesdesk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(checkout, ".tools", "npm", "node_modules", ".bin"), filepath.Join(checkout, ".tools", "venv", "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"claude", "codex", "gemini", "hermes"} {
			writeScript(t, d, name, "echo planted")
		}
	}
	sub := filepath.Join(checkout, "backend")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HERMESDESK_TOOLS", "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for _, wd := range []string{checkout, sub} {
		t.Chdir(wd)
		for _, name := range []string{"claude", "codex", "gemini", "hermes"} {
			if p, err := Find(nil, name); err == nil && strings.HasPrefix(p, checkout) {
				t.Errorf("from %s, %s found the planted %s", wd, name, p)
			}
		}
	}
	// Named explicitly, the same dir is used (that is how tests pass theirs).
	t.Setenv("HERMESDESK_TOOLS", filepath.Join(checkout, ".tools"))
	if p, err := Find(nil, "hermes"); err != nil || !strings.HasPrefix(p, filepath.Join(checkout, ".tools")) {
		t.Fatalf("explicit tools dir: %q %v", p, err)
	}
}
