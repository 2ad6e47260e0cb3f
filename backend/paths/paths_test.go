package paths

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDataDir(t *testing.T) {
	home := func() (string, error) { return "/home/ann", nil }
	noHome := func() (string, error) { return "", errors.New("no home") }
	tests := []struct {
		name, goos string
		env        map[string]string
		home       func() (string, error)
		want       string
		wantErr    bool
	}{
		{"override wins", "linux", map[string]string{EnvHome: "/tmp/hd", "XDG_DATA_HOME": "/x"}, home, "/tmp/hd", false},
		{"xdg data home", "linux", map[string]string{"XDG_DATA_HOME": "/x"}, home, "/x/hermesdesk", false},
		{"relative xdg ignored", "linux", map[string]string{"XDG_DATA_HOME": "rel"}, home, "/home/ann/.local/share/hermesdesk", false},
		{"linux default", "linux", nil, home, "/home/ann/.local/share/hermesdesk", false},
		{"darwin", "darwin", nil, home, "/home/ann/Library/Application Support/HermesDesk", false},
		{"windows appdata", "windows", map[string]string{"APPDATA": "/c/AppData/Roaming"}, home, "/c/AppData/Roaming/HermesDesk", false},
		{"no home", "linux", nil, noHome, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dataDir(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if got != filepath.FromSlash(tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRuntimeDirIsShortAndPerDataDir(t *testing.T) {
	a, b := RuntimeDir("/data/a"), RuntimeDir("/data/b")
	if a == b {
		t.Fatalf("two data dirs share a runtime dir %q", a)
	}
	if len(a) > 70 {
		t.Fatalf("runtime dir too long for unix sockets: %q", a)
	}
}

func TestEnsure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "data")
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	// A path under a regular file cannot be created, even by root.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if err := Ensure(filepath.Join(file, "data")); err == nil || !strings.Contains(err.Error(), "cannot create") {
		t.Fatalf("dir under a file: err = %v", err)
	}
}
