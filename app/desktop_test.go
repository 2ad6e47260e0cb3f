package app

import (
	"os"
	"path/filepath"
	"testing"
)

// The paperclip's chooser opens in the session's project folder; a folder
// that is gone (or is a file) leaves the chooser at its own default.
func TestPickFilesOpensInTheProject(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, folder, want string }{
		{"the project", dir, dir},
		{"none", "", ""},
		{"moved away", filepath.Join(dir, "gone"), ""},
		{"a file", file, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			u := (&fakeUI{}).ui()
			u.PickFiles = func(_, folder string) ([]string, error) { got = append(got, folder); return nil, nil }
			d := &Desktop{app: &App{shell: &shell{ui: u}}}
			if _, err := d.PickFilesIn("Attach files", tc.folder); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Fatalf("the chooser opened in %q, want %q", got, tc.want)
			}
		})
	}
}
