package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// hermesdesk runs undo RUN, through the HTTP API and the service, on a
// checkpoint kept in a real journal and a plain folder.
func TestRunsUndo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	j, err := journal.Open(filepath.Join(data, "db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	f := newFixture(t, func(s *service.Service) { s.SetCheckpoints(j, data) })
	f.mem.AddRun("r1")
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("before\n"), 0o644)
	k, err := checkpoints.Before(ctx, j, checkpoints.Target{DataDir: data, Workspace: ws, SessionID: "ses_x", RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("after\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "made.txt"), []byte("new\n"), 0o644)
	now, err := k.Snaps.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.After(ctx, now); err != nil {
		t.Fatal(err)
	}

	if code := f.env.Runs([]string{"undo", "r1"}); code != exitFail || !strings.Contains(f.stderr.String(), "still going") {
		t.Fatalf("undo of a running run: %d %q", code, f.stderr.String())
	}
	f.mem.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	// A later edit of the same line: refused, the file named, nothing changed.
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("after, edited\n"), 0o644)
	f.stderr.b.Reset()
	if code := f.env.Runs([]string{"undo", "r1"}); code != exitFail || !strings.Contains(f.stderr.String(), "a.txt (the same lines were changed since this run)") {
		t.Fatalf("undo over a later edit: %d %q", code, f.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(ws, "made.txt")); err != nil {
		t.Fatalf("a refused undo changed files: %v", err)
	}
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("after\n"), 0o644)
	if code := f.env.Runs([]string{"undo", "r1"}); code != 0 || !strings.Contains(f.stdout.String(), "Undid r1: 2 file(s) put back.") {
		t.Fatalf("undo: %d %q %q", code, f.stdout.String(), f.stderr.String())
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "before\n" {
		t.Errorf("a.txt = %q", b)
	}
	if _, err := os.Stat(filepath.Join(ws, "made.txt")); !os.IsNotExist(err) {
		t.Errorf("made.txt is still there: %v", err)
	}
}
