package layout

import (
	"strings"
	"testing"
)

// windowImports lists "file imports path" for every .go file (tests too)
// outside app/ and main_window.go that imports app/: app/ is the window
// program alone, and nothing below it may reach back up into it
// (docs/ARCHITECTURE.md §Processes). Headless helpers both programs use
// live in platform/.
func windowImports(root string) (bad []string, checked int, err error) {
	return forbiddenImports(root, func(rel string) bool {
		return rel == "main_window.go" || strings.HasPrefix(rel, "app/")
	}, func(path string) bool {
		return path == module+"app" || strings.HasPrefix(path, module+"app/")
	})
}

// TestOnlyTheWindowImportsApp: see windowImports.
func TestOnlyTheWindowImportsApp(t *testing.T) {
	requireImportRule(t, windowImports, "only the window (app/, main_window.go) may import app/; move what both programs need to platform/")
}

// TestWindowImportCheckFindsAPlantedImport makes sure the rule above can
// fail: a core file or a test importing app/ or a package under it is
// reported; app/ itself, main_window.go and a look-alike path are not.
func TestWindowImportCheckFindsAPlantedImport(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) { writeTreeFile(t, root, rel, src) }
	write("main_window.go", "package main\nimport _ \""+module+"app\"\n")
	write("app/x/x.go", "package x\nimport _ \""+module+"app\"\n")
	write("core/core.go", "package core\nimport _ \""+module+"app/applog\"\n")
	write("core/core_test.go", "package core\nimport _ \""+module+"app\"\n")
	write("core/ok.go", "package core\nimport _ \""+module+"apphost\"\n")
	bad, checked, err := windowImports(root)
	if err != nil {
		t.Fatal(err)
	}
	if checked != 3 {
		t.Errorf("checked %d files; want 3 (core.go, core_test.go, ok.go)", checked)
	}
	want := []string{"core/core.go imports " + module + "app/applog", "core/core_test.go imports " + module + "app"}
	if strings.Join(bad, "\n") != strings.Join(want, "\n") {
		t.Errorf("reported %q; want %q", bad, want)
	}
}
