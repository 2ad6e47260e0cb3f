package layout

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	sectionRef = regexp.MustCompile(`ARCHITECTURE\.md[ ,]*§([^\n]*)`)
	heading    = regexp.MustCompile(`(?m)^#{2,3} +(.+?) *$`)
)

// TestArchitectureReferencesExist: every "docs/ARCHITECTURE.md §Name" a
// comment points at names a section that exists, so the document and the
// code cannot drift apart silently.
func TestArchitectureReferencesExist(t *testing.T) {
	doc, err := os.ReadFile("../../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	var sections []string
	for _, m := range heading.FindAllStringSubmatch(string(doc), -1) {
		// Backticks are markup, not part of a name: "§`approval.requested`"
		// names the heading "`approval.requested` — shown = approved".
		sections = append(sections, strings.ReplaceAll(m[1], "`", ""))
	}
	// Longest first: "The watch bus" before "The".
	sort.Slice(sections, func(i, j int) bool { return len(sections[i]) > len(sections[j]) })
	refs := 0
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "dist", ".tools", "out":
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Base(path) == "archdoc_test.go" {
			return nil // this file names the pattern itself
		}
		switch filepath.Ext(path) {
		case ".go", ".ts", ".tsx", ".mjs", ".sh", ".css":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range sectionRef.FindAllStringSubmatch(string(b), -1) {
			for _, ref := range strings.Split(m[1], "§") {
				ref = strings.ReplaceAll(strings.TrimLeft(ref, " "), "`", "")
				if ref == "" {
					continue
				}
				refs++
				found := false
				for _, s := range sections {
					if strings.HasPrefix(ref, s) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("%s points at docs/ARCHITECTURE.md §%s, which has no such section", path, strings.TrimSpace(ref))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if refs < 20 {
		t.Fatalf("found only %d references: is the pattern still right?", refs)
	}
}
