package app

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Where the Save dialog opens: the desktop's Downloads folder when
// user-dirs.dirs names one that exists, else ~/Downloads, else home.
func TestDownloadsDir(t *testing.T) {
	home := t.TempDir()
	dl := filepath.Join(home, "Downloads")
	fr := filepath.Join(home, "Téléchargements")
	abs := filepath.Join(t.TempDir(), "dl")
	for _, d := range []string{fr, abs} {
		os.MkdirAll(d, 0o755)
	}
	xdgConfig := filepath.Join(home, "xdgconf")
	for _, tc := range []struct {
		name    string
		dirs    string // user-dirs.dirs; "" none
		config  string // XDG_CONFIG_HOME
		downlds bool   // ~/Downloads exists
		want    string
	}{
		{"no user-dirs, no Downloads: home", "", "", false, home},
		{"no user-dirs: ~/Downloads", "", "", true, dl},
		{"user-dirs in $HOME", `XDG_DOWNLOAD_DIR="$HOME/Téléchargements"`, "", true, fr},
		{"user-dirs absolute", "# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_DOWNLOAD_DIR=\"" + abs + "\"\n", "", false, abs},
		{"user-dirs under XDG_CONFIG_HOME", `XDG_DOWNLOAD_DIR="$HOME/Téléchargements"`, xdgConfig, false, fr},
		{"user-dirs names a folder that is gone", `XDG_DOWNLOAD_DIR="$HOME/gone"`, "", true, dl},
		{"user-dirs disabled (= $HOME)", `XDG_DOWNLOAD_DIR="$HOME/"`, "", true, home},
		{"user-dirs unquoted: ignored", `XDG_DOWNLOAD_DIR=$HOME/Téléchargements`, "", false, home},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(dl)
			if tc.downlds {
				os.MkdirAll(dl, 0o755)
			}
			env := map[string]string{"XDG_CONFIG_HOME": tc.config}
			cfg := tc.config
			if cfg == "" {
				cfg = filepath.Join(home, ".config")
			}
			read := func(p string) ([]byte, error) {
				if tc.dirs == "" || p != filepath.Join(cfg, "user-dirs.dirs") {
					return nil, os.ErrNotExist
				}
				return []byte(tc.dirs), nil
			}
			if got := downloadsDir(home, func(k string) string { return env[k] }, read); got != tc.want {
				t.Fatalf("downloadsDir = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExportNameAndShownPath(t *testing.T) {
	for in, want := range map[string]string{
		"Fix the login bug.md":  "Fix the login bug.md",
		"../../etc/passwd":      "etc-passwd",
		"a/b\\c.hdbundle.jsonl": "a-b-c.hdbundle.jsonl",
		".hidden.md":            "hidden.md",
		"":                      "session-export.md",
		"line\nbreak.md":        "line-break.md",
	} {
		if got := exportName(in); got != want {
			t.Errorf("exportName(%q) = %q, want %q", in, got, want)
		}
	}
	for _, tc := range [][3]string{
		{"/home/me/Downloads/s.md", "/home/me", "~/Downloads/s.md"},
		{"/home/me", "/home/me", "~"},
		{"/home/meta/s.md", "/home/me", "/home/meta/s.md"},
		{"/tmp/s.md", "", "/tmp/s.md"},
	} {
		if got := tildePath(tc[0], tc[1]); got != tc[2] {
			t.Errorf("tildePath(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}

// The window's export: the Save dialog's answer is written (replacing a
// file the person chose to replace), a cancel writes nothing, and a
// failure says so and leaves the old file.
func TestSaveExport(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	os.MkdirAll(filepath.Join(home, "Downloads"), 0o755)
	var answer string
	var asked [][3]string
	u := (&fakeUI{}).ui()
	u.SaveFile = func(title, folder, name string) (string, error) {
		asked = append(asked, [3]string{title, folder, name})
		return answer, nil
	}
	d := &Desktop{app: &App{shell: &shell{ui: u, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}}}

	answer = filepath.Join(home, "Downloads", "My session.md")
	got, err := d.SaveExport("My session.md", "# My session\n")
	if err != nil || got.Path != answer || got.Shown != "~/Downloads/My session.md" {
		t.Fatalf("SaveExport = %+v, %v", got, err)
	}
	if asked[0] != [3]string{"Export", filepath.Join(home, "Downloads"), "My session.md"} {
		t.Fatalf("the dialog was asked %q", asked[0])
	}
	if b, _ := os.ReadFile(answer); string(b) != "# My session\n" {
		t.Fatalf("the file holds %q", b)
	}
	if _, err := d.SaveExport("My session.md", "# again\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(answer); string(b) != "# again\n" {
		t.Fatalf("the replaced file holds %q", b)
	}

	answer = ""
	if got, err := d.SaveExport("other.md", "x"); err != nil || got.Path != "" {
		t.Fatalf("cancelled: %+v, %v", got, err)
	}

	ro := filepath.Join(home, "readonly")
	os.MkdirAll(ro, 0o755)
	os.WriteFile(filepath.Join(ro, "keep.md"), []byte("mine"), 0o644)
	os.Chmod(ro, 0o555)
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	if os.Getuid() != 0 {
		answer = filepath.Join(ro, "keep.md")
		_, err := d.SaveExport("keep.md", "new")
		if err == nil || !strings.Contains(err.Error(), "could not save keep.md") {
			t.Fatalf("a folder that refuses writes: %v", err)
		}
		if b, _ := os.ReadFile(answer); string(b) != "mine" {
			t.Fatalf("the person's file was changed: %q", b)
		}
	}

	u.SaveFile = func(string, string, string) (string, error) { return "", errors.New("no display") }
	d.app.shell.ui = u
	if _, err := d.SaveExport("s.md", "x"); err == nil || !strings.Contains(err.Error(), "Save dialog") {
		t.Fatalf("a failing dialog: %v", err)
	}
}

func FuzzUserDir(f *testing.F) {
	f.Add([]byte("XDG_DOWNLOAD_DIR=\"$HOME/Downloads\"\n"), "/home/me")
	f.Add([]byte("XDG_DOWNLOAD_DIR=\"/x\"\nXDG_DOWNLOAD_DIR=\"\""), "")
	f.Add([]byte("XDG_DOWNLOAD_DIR=\"\n"), "/h")
	f.Fuzz(func(t *testing.T, data []byte, home string) {
		dir := userDir(data, "XDG_DOWNLOAD_DIR", home)
		if dir != "" && !filepath.IsAbs(dir) {
			t.Fatalf("userDir gave %q", dir)
		}
	})
}

func TestFolderOpener(t *testing.T) {
	for _, tc := range []struct{ goos, name string }{
		{"linux", "xdg-open"}, {"freebsd", "xdg-open"}, {"darwin", "open"}, {"windows", "explorer"},
	} {
		name, args := folderOpener(tc.goos, "/home/me/Downloads")
		if name != tc.name || len(args) != 1 || args[0] != "/home/me/Downloads" {
			t.Errorf("%s: %s %q", tc.goos, name, args)
		}
	}
	d := &Desktop{app: &App{shell: &shell{logger: slog.New(slog.NewTextHandler(io.Discard, nil))}}}
	if err := d.ShowFolder(filepath.Join(t.TempDir(), "gone", "s.md")); err == nil || !strings.Contains(err.Error(), "is not there any more") {
		t.Fatalf("a folder that is gone: %v", err)
	}
}
