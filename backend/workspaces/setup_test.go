package workspaces

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/run"
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

// The setup script's output is published while it runs: the script
// prints, then waits on a fifo the test holds; the first line must be
// heard on Changed before the test lets it go on.
func TestSetupOutputStreamsWhileItRuns(t *testing.T) {
	ctx := context.Background()
	fifo := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no fifo here: %v", err)
	}
	repo := newRepo(t)
	write(t, repo, ".hermesdesk/workspace.json", `{"setup": "echo installing step one; read x < '`+fifo+`'; echo step two done"}`, 0o644)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "setup")
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	m := newManager(t, st)
	// Let a script still waiting go when the test fails early (before
	// m.Wait, which the cleanups run after this one); O_RDWR never blocks.
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			f.WriteString("go\n")
			f.Close()
		}
	})
	heard := make(chan run.Workspace, 64)
	m.Changed = func(w run.Workspace) { heard <- w }
	if _, err := m.Create(ctx, p.ID, ""); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second)
	for first := false; !first; {
		select {
		case w := <-heard:
			if strings.Contains(w.SetupOutput, "step two") {
				t.Fatalf("heard the end before the fifo was opened: %q", w.SetupOutput)
			}
			first = w.SetupStatus == SetupRunning && strings.Contains(w.SetupOutput, "installing step one")
		case <-deadline:
			t.Fatal("the setup's first line was not published while it ran")
		}
	}
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("go\n")
	f.Close()
	m.Wait()
	for {
		select {
		case w := <-heard:
			if w.SetupStatus == SetupDone {
				if !strings.Contains(w.SetupOutput, "installing step one") || !strings.Contains(w.SetupOutput, "step two done") {
					t.Fatalf("final output %q", w.SetupOutput)
				}
				return
			}
		case <-deadline:
			t.Fatal("the setup's end was not published")
		}
	}
}

func TestSetupOutputTailIsBounded(t *testing.T) {
	o := newSetupOutput()
	fmt.Fprint(o, strings.Repeat("é", setupTailBytes)) // two bytes each
	o.Write([]byte("end"))
	tail := o.Tail()
	if !strings.HasPrefix(tail, "…é") || !strings.HasSuffix(tail, "end") || len(tail) > setupTailBytes+len("…") || !utf8.ValidString(tail) {
		t.Fatalf("tail of %d bytes, starts %q", len(tail), tail[:8])
	}
	if got := newSetupOutputWith("short\n").Tail(); got != "short\n" {
		t.Fatalf("short tail %q", got)
	}
}

func newSetupOutputWith(s string) *setupOutput {
	o := newSetupOutput()
	o.Write([]byte(s))
	return o
}

// CreateWith's prepare runs on the new worktree before the setup step, so
// the setup script sees what it wrote (a fork's files, §Checkpoints); a
// failing prepare keeps the worktree and runs no setup.
func TestCreateWithPreparesBeforeSetup(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	write(t, repo, ".hermesdesk/workspace.json", `{"setup": "cat prepared.txt > setup-saw.txt"}`, 0o644)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "setup")
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	m := newManager(t, st)
	prepare := func(_ context.Context, w run.Workspace) error {
		return os.WriteFile(filepath.Join(w.Path, "prepared.txt"), []byte("laid over\n"), 0o644)
	}
	w, err := m.CreateWith(ctx, p.ID, "", "", prepare)
	if err != nil {
		t.Fatal(err)
	}
	m.Wait()
	if got, err := os.ReadFile(filepath.Join(w.Path, "setup-saw.txt")); err != nil || string(got) != "laid over\n" {
		t.Fatalf("the setup script saw %q, %v", got, err)
	}

	boom := errors.New("boom")
	w2, err := m.CreateWith(ctx, p.ID, "", "", func(context.Context, run.Workspace) error { return boom })
	m.Wait()
	if !errors.Is(err, boom) || w2.State != StateReady {
		t.Fatalf("a failed prepare: %+v, %v", w2, err)
	}
	if _, err := os.Stat(filepath.Join(w2.Path, "setup-saw.txt")); !os.IsNotExist(err) {
		t.Errorf("setup ran after a failed prepare: %v", err)
	}
}
