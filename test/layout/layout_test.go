// Package layout checks rules of the source tree that the compiler does not.
package layout

import (
	"os/exec"
	"strings"
	"testing"
)

// guiModules are the GUI toolkits only app/ (the window) and core/tray
// (the tray, in the core) may use.
var guiModules = []string{"github.com/wailsapp/", "fyne.io/systray", "github.com/gotk3/", "webkit"}

// TestHeadlessPackagesImportNoGUI: backend packages and the platform
// helpers (platform/) must build and test on a machine without a display.
func TestHeadlessPackagesImportNoGUI(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not on PATH")
	}
	pkgs := []string{"../../backend/...", "../../platform/...", "../../core/coreapi/..."}
	// -e: a package another engineer is halfway through still lists.
	args := append([]string{"list", "-e", "-deps", "-tags", "sqlite_fts5,webkit2_41",
		"-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}"}, pkgs...)
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0], "github.com/hermesdesk/hermesdesk/") {
			continue
		}
		for _, imp := range fields[1:] {
			for _, gui := range guiModules {
				if strings.Contains(imp, gui) {
					t.Errorf("%s imports %s: headless packages must not use a GUI toolkit", fields[0], imp)
				}
			}
		}
	}
}

// webviewModules map GTK and WebKit into a process.
var webviewModules = []string{"github.com/wailsapp/", "github.com/gotk3/", "webkit"}

// TestCoreProgramLinksNoWebview: hermesdesk (the root package built without
// the desktop tag: core, CLI, serve, shims, demo agent) must not link the
// window's toolkit; only hermesdesk-window does (docs/ARCHITECTURE.md
// §Processes). test/desktop checks the running processes' maps too.
func TestCoreProgramLinksNoWebview(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", "-tags", "sqlite_fts5,webkit2_41", "../..").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, gui := range webviewModules {
			if strings.Contains(dep, gui) {
				t.Errorf("the hermesdesk program depends on %s", dep)
			}
		}
	}
}
