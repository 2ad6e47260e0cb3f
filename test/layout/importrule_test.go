package layout

import (
	"os"
	"path/filepath"
	"testing"
)

// requireImportRule runs an import check over the repository and reports
// each file it finds breaking the rule, with why.
func requireImportRule(t *testing.T, check func(root string) (bad []string, checked int, err error), why string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bad, checked, err := check(root)
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files found to check")
	}
	for _, b := range bad {
		t.Errorf("%s: %s", b, why)
	}
}

// writeTreeFile writes src at rel under root, making its folders (a planted
// file for a check's own test).
func writeTreeFile(t *testing.T, root, rel, src string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}
