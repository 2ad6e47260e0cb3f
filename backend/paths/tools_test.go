package paths

import (
	"os"
	"path/filepath"
	"testing"
)

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
	if err := os.WriteFile(filepath.Join(checkout, "go.mod"), []byte("module "+modulePath+"\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tools := mkdir(filepath.Join(checkout, ".tools"))
	pkgDir := mkdir(filepath.Join(checkout, "backend", "x"))
	// A user's folder with a .tools dir of its own (another project).
	userDir := mkdir(filepath.Join(root, "home", "work"))
	mkdir(filepath.Join(root, "home", ".tools"))
	other := mkdir(filepath.Join(root, "other"))
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mkdir(filepath.Join(other, ".tools"))

	tests := []struct {
		name, env, wd, want string
	}{
		{"explicit env wins", "/opt/tools", userDir, "/opt/tools"},
		{"dev checkout, package dir", "", pkgDir, tools},
		{"dev checkout root", "", checkout, tools},
		{"user folder with a stray .tools", "", userDir, ""},
		{"another module's .tools", "", other, ""},
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
