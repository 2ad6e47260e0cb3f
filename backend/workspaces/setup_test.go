package workspaces

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetupCopiesIncludedFilesAndRunsTheScript(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	write(t, repo, ".worktreeinclude", ".env\nconfig/\n*.txt\n", 0o644)
	write(t, repo, ".hermesdesk/workspace.json", `{"setup": "printf '%s|%s|%s|%s' \"$HERMESDESK_WORKSPACE_PATH\" \"$HERMESDESK_WORKSPACE_NAME\" \"$HERMESDESK_BASE_BRANCH\" \"$HERMESDESK_PORT\" > setup.out; cat .env; echo set up"}`, 0o644)
	write(t, repo, "conductor.json", `{"scripts": {"setup": "echo conductor > conductor.out"}}`, 0o644)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "setup")
	write(t, repo, ".git/info/exclude", "config/\n", 0o644)
	write(t, repo, ".env", "SECRET=1\n", 0o600)
	write(t, repo, "config/local.json", "{}\n", 0o644)
	write(t, repo, "notes.txt", "untracked, not ignored\n", 0o644) // named but not ignored: not copied
	write(t, repo, "other.log", "ignored, not named\n", 0o644)

	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	m := newManager(t, st)
	w, err := m.Create(ctx, p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	m.Wait()
	w, _ = st.GetWorkspace(ctx, w.ID)
	if w.SetupStatus != SetupDone || w.SetupSource != SetupFileOwn {
		t.Fatalf("setup %s from %s: %s", w.SetupStatus, w.SetupSource, w.SetupOutput)
	}
	if !strings.Contains(w.SetupOutput, "SECRET=1") || !strings.Contains(w.SetupOutput, "set up") {
		t.Fatalf("output %q", w.SetupOutput)
	}
	slug, _ := Slug(w.ID)
	got, _ := os.ReadFile(filepath.Join(w.Path, "setup.out"))
	if want := fmt.Sprintf("%s|%s|main|%d", w.Path, slug, w.Port); string(got) != want || w.Port == 0 {
		t.Fatalf("env %q, want %q", got, want)
	}
	for name, want := range map[string]bool{".env": true, "config/local.json": true, "notes.txt": false, "other.log": false, "conductor.out": false} {
		_, err := os.Stat(filepath.Join(w.Path, name))
		if (err == nil) != want {
			t.Errorf("%s in the worktree: %v, want %v", name, err == nil, want)
		}
	}
	if info, err := os.Stat(filepath.Join(w.Path, ".env")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf(".env mode %v, %v", info.Mode(), err)
	}

	// A second workspace gets another block of ports.
	w2, err := m.Create(ctx, p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if w2.Port == w.Port || w2.Port == 0 {
		t.Fatalf("ports %d and %d", w.Port, w2.Port)
	}
}

func TestSetupFailureKeepsTheWorkspace(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	write(t, repo, ".codex/environments/environment.toml", "version = 1\n[setup]\nscript = '''\necho boom\nexit 3\n'''\n", 0o644)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "setup")
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	m := newManager(t, st)
	w, err := m.Create(ctx, p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	m.Wait()
	w, _ = st.GetWorkspace(ctx, w.ID)
	if w.State != StateReady || w.SetupStatus != SetupFailed || !strings.Contains(w.SetupOutput, "boom") ||
		!strings.Contains(w.Note, "setup script from .codex/environments/environment.toml failed") {
		t.Fatalf("%+v", w)
	}
	if _, err := m.Archive(ctx, w.ID); err != nil {
		t.Fatalf("a workspace whose setup failed cannot be archived: %v", err)
	}
}
