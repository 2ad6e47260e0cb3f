package paths

import (
	"os"
	"path/filepath"
	"testing"
)

// A checkout of this very project (someone else's clone) is as foreign as
// any other folder: only an explicit, absolute HERMESDESK_TOOLS counts.
func TestToolsDir(t *testing.T) {
	mkdir := func(p string) string {
		t.Helper()
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	root := t.TempDir()
	checkout := mkdir(filepath.Join(root, "checkout"))
	if err := os.WriteFile(filepath.Join(checkout, "go.mod"), []byte("module github.com/hermesdesk/hermesdesk\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mkdir(filepath.Join(checkout, ".tools"))
	pkgDir := mkdir(filepath.Join(checkout, "backend", "x"))
	userDir := mkdir(filepath.Join(root, "home", "work"))
	mkdir(filepath.Join(root, "home", ".tools"))

	tests := []struct {
		name, env, wd, want string
	}{
		{"explicit env wins", "/opt/tools", userDir, "/opt/tools"},
		{"explicit env is cleaned", "/opt/tools/", userDir, "/opt/tools"},
		{"relative env is ignored", ".tools", checkout, ""},
		{"checkout of this project, package dir", "", pkgDir, ""},
		{"checkout of this project, root", "", checkout, ""},
		{"user folder with a stray .tools", "", userDir, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvTools, tt.env)
			t.Chdir(tt.wd)
			if got := ToolsDir(); got != tt.want {
				t.Fatalf("ToolsDir() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestToolsBinDirs(t *testing.T) {
	if ToolsBinDirs("") != nil {
		t.Fatal("no tools dir, no bin dirs")
	}
	got := ToolsBinDirs("/t")
	if len(got) != 2 || got[0] != filepath.Join("/t", "npm", "node_modules", ".bin") || got[1] != filepath.Join("/t", "venv", "bin") {
		t.Fatalf("%q", got)
	}
}
