// Package treecopy copies a folder of test fixtures (a testdata tree) to
// where a test may change it. Only tests import it.
package treecopy

import (
	"os"
	"path/filepath"
	"testing"
)

// Into copies every file and folder under src into dst (made as needed),
// files with mode 0644.
func Into(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
