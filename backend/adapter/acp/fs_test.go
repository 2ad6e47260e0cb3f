//go:build unix

package acp

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWorkspace(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644))
	must(os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(os.Symlink(secret, filepath.Join(dir, "link-out")))
	must(os.Symlink(outside, filepath.Join(dir, "dir-out")))
	must(os.Symlink(filepath.Join(outside, "new.txt"), filepath.Join(dir, "dangling-out")))
	must(os.Symlink(filepath.Join(dir, "a.txt"), filepath.Join(dir, "link-in")))
	// The repository's own folder: its config and hooks run code in git.
	must(os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755))
	must(os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[core]\n"), 0o644))
	must(os.Symlink(".git", filepath.Join(dir, "git-link")))
	must(os.Symlink(filepath.Join(".git", "config"), filepath.Join(dir, "config-link")))
	must(os.Symlink(filepath.Join(dir, ".git"), filepath.Join(dir, "git-abs-link")))
	// The workspace itself reached through a symlink must still work.
	alias := filepath.Join(t.TempDir(), "alias")
	must(os.Symlink(dir, alias))

	ws, err := openWorkspace(alias)
	must(err)
	defer ws.Close()
	ip := func(n int) *int { return &n }

	reads := []struct {
		name, path  string
		line, limit *int
		want        string
		wantErr     error
	}{
		{name: "whole file", path: filepath.Join(alias, "a.txt"), want: "one\ntwo\nthree\n"},
		{name: "through the resolved root", path: filepath.Join(dir, "a.txt"), want: "one\ntwo\nthree\n"},
		{name: "relative", path: "a.txt", want: "one\ntwo\nthree\n"},
		{name: "line and limit", path: "a.txt", line: ip(2), limit: ip(1), want: "two\n"},
		{name: "line past the end", path: "a.txt", line: ip(10), want: ""},
		{name: "missing reads empty", path: "nope/missing.txt", want: ""},
		{name: "symlink inside", path: "link-in", want: "one\ntwo\nthree\n"},
		{name: "absolute outside", path: secret, wantErr: ErrOutsideWorkspace},
		{name: "dot-dot", path: filepath.Join(alias, "..", "x"), wantErr: ErrOutsideWorkspace},
		{name: "symlink to a file outside", path: "link-out", wantErr: ErrOutsideWorkspace},
		{name: "symlinked dir outside", path: "dir-out/secret.txt", wantErr: ErrOutsideWorkspace},
	}
	for _, tc := range reads {
		t.Run("read "+tc.name, func(t *testing.T) {
			got, err := ws.read(tc.path, tc.line, tc.limit)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v; want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("read = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := ws.read("sub", nil, nil); err == nil {
		t.Fatal("reading a directory must fail")
	}

	writes := []struct {
		name, path string
		wantRel    string
		created    bool
		wantErr    error
	}{
		{name: "new file in new dirs", path: filepath.Join(alias, "x/y/new.txt"), wantRel: "x/y/new.txt", created: true},
		{name: "existing file", path: "a.txt", wantRel: "a.txt"},
		{name: "absolute outside", path: filepath.Join(outside, "w.txt"), wantErr: ErrOutsideWorkspace},
		{name: "dot-dot", path: "../w.txt", wantErr: ErrOutsideWorkspace},
		{name: "symlink to a file outside", path: "link-out", wantErr: ErrOutsideWorkspace},
		{name: "dangling symlink outside", path: "dangling-out", wantErr: ErrOutsideWorkspace},
		{name: "into a symlinked dir outside", path: "dir-out/w.txt", wantErr: ErrOutsideWorkspace},
		{name: "the repository's config", path: filepath.Join(alias, ".git", "config"), wantErr: ErrGitDir},
		{name: "a new hook", path: ".git/hooks/post-index-change", wantErr: ErrGitDir},
		{name: "the .git folder itself", path: ".git", wantErr: ErrGitDir},
		{name: "a nested repository", path: "sub/.git/config", wantErr: ErrGitDir},
		{name: "upper case", path: ".GIT/config", wantErr: ErrGitDir},
		{name: "through dot-dot", path: "sub/../.git/config", wantErr: ErrGitDir},
		{name: "through a relative dir symlink", path: "git-link/config", wantErr: ErrGitDir},
		{name: "through a file symlink", path: "config-link", wantErr: ErrGitDir},
		{name: "through an absolute dir symlink", path: "git-abs-link/hooks/pre-commit", wantErr: ErrGitDir},
		{name: "a name that only starts with .git", path: ".github/workflows/ci.yml", wantRel: ".github/workflows/ci.yml", created: true},
	}
	for _, tc := range writes {
		t.Run("write "+tc.name, func(t *testing.T) {
			rel, created, err := ws.write(tc.path, "new")
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v; want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || rel != tc.wantRel || created != tc.created {
				t.Fatalf("write = %q, %v, %v; want %q, %v", rel, created, err, tc.wantRel, tc.created)
			}
			b, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil || string(b) != "new" {
				t.Fatalf("content = %q, %v", b, err)
			}
		})
	}
	// The repository's folder is as it was.
	if b, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); string(b) != "[core]\n" {
		t.Fatalf(".git/config overwritten: %q", b)
	}
	if hooks, _ := os.ReadDir(filepath.Join(dir, ".git", "hooks")); len(hooks) != 0 {
		t.Fatalf("a hook was written: %v", hooks)
	}
	// Nothing leaked outside.
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Fatalf("outside dir now holds %d entries", len(entries))
	}
	if b, _ := os.ReadFile(secret); string(b) != "secret" {
		t.Fatalf("secret overwritten: %q", b)
	}
}
