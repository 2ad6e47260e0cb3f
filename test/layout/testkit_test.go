package layout

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/hermesdesk/hermesdesk/"

// TestProductImportsNoTestkit: the shipped program carries no test double
// or test scenario. Only tests (_test.go files) and the test kit itself
// (testkit/, including its test-only commands) may import testkit/; the
// same holds for backend/mock, the journal's function-field fake
// (docs/ARCHITECTURE.md §Journal). Every
// .go file is read, whatever its build tags or GOOS, so a file the
// current build leaves out cannot hide an import.
func TestProductImportsNoTestkit(t *testing.T) {
	requireImportRule(t, testkitImports, "product code must not use the test kit")
}

// TestTestkitImportCheckFindsAPlantedImport makes sure the rule above can
// fail: a product file importing testkit/ is reported, a test file or a
// file under testkit/ is not.
func TestTestkitImportCheckFindsAPlantedImport(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) { writeTreeFile(t, root, rel, src) }
	imp := "import _ \"" + module + "testkit/fakeagent\"\n"
	write("backend/x/x.go", "package x\n"+imp)
	write("backend/x/x_windows.go", "//go:build windows\n\npackage x\n"+imp)
	write("backend/y/y.go", "package y\nimport _ \"os\"\n")
	write("backend/y/y_test.go", "package y\n"+imp)
	write("backend/y/m.go", "package y\nimport _ \""+module+"backend/mock\"\n")
	write("backend/mock/mock.go", "package mock\n"+imp)
	write("testkit/z/z.go", "package z\n"+imp)
	write("frontend/node_modules/m/m.go", "package m\n"+imp)
	bad, checked, err := testkitImports(root)
	if err != nil {
		t.Fatal(err)
	}
	if checked != 4 {
		t.Errorf("checked %d files; want 4 (x.go, x_windows.go, m.go, y.go)", checked)
	}
	want := []string{"backend/x/x.go imports " + module + "testkit/fakeagent", "backend/x/x_windows.go imports " + module + "testkit/fakeagent",
		"backend/y/m.go imports " + module + "backend/mock"}
	if strings.Join(bad, "\n") != strings.Join(want, "\n") {
		t.Errorf("reported %q; want %q", bad, want)
	}
}

// testkitImports lists "file imports path" for every non-test .go file
// outside testkit/ under root that imports the test kit.
func testkitImports(root string) (bad []string, checked int, err error) {
	return forbiddenImports(root, func(rel string) bool {
		return strings.HasSuffix(rel, "_test.go") || strings.HasPrefix(rel, "testkit/") || strings.HasPrefix(rel, "backend/mock/")
	}, func(path string) bool {
		return path == module+"testkit" || strings.HasPrefix(path, module+"testkit/") || path == module+"backend/mock"
	})
}

// forbiddenImports lists "file imports path" for every .go file under root
// that exempt does not excuse and that imports a path forbidden names;
// checked counts the files read. Every .go file is parsed, whatever its
// build tags or GOOS.
func forbiddenImports(root string, exempt func(rel string) bool, forbidden func(path string) bool) (bad []string, checked int, err error) {
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if name == "node_modules" || name == "testdata" || (strings.HasPrefix(name, ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || exempt(rel) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, s := range f.Imports {
			path, _ := strconv.Unquote(s.Path.Value)
			if forbidden(path) {
				bad = append(bad, rel+" imports "+path)
			}
		}
		return nil
	})
	return bad, checked, err
}
