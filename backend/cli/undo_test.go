package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// hermesdesk runs undo RUN, through the HTTP API and the service, on a
// checkpoint kept in a real journal and a plain folder.
func TestRunsUndo(t *testing.T) {
	gitcmdtest.Need(t)
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
	k, err := checkpoints.Before(ctx, j, checkpoints.Target{DataDir: data, Workspace: ws, SessionID: "ses_x", TurnID: "t1", RunID: "r1"})
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
	f.stderr.Reset()
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

	// The other routes, through the same client.
	c := f.env.Client("")
	os.WriteFile(filepath.Join(ws, "later.txt"), []byte("later\n"), 0o644)
	var preview run.CheckpointResult
	if err := c.Call(ctx, "POST", "/api/sessions/ses_x/restore?turn=t1&preview=1", nil, &preview); err != nil {
		t.Fatal(err)
	}
	if len(preview.Files) != 1 || preview.Files[0].Path != "later.txt" || preview.Files[0].Action != "keep" || !preview.Preview {
		t.Errorf("restore preview: %+v", preview)
	}
	var usage checkpoints.Usage
	if err := c.Call(ctx, "GET", "/api/checkpoints/usage", nil, &usage); err != nil || usage.Checkpoints != 2 || usage.Bytes <= 0 {
		t.Errorf("usage: %+v, %v", usage, err)
	}
	var list struct{ Checkpoints []run.Checkpoint }
	if err := c.Call(ctx, "GET", "/api/sessions/ses_x/checkpoints", nil, &list); err != nil || len(list.Checkpoints) != 2 || list.Checkpoints[1].Kind != run.CheckpointUndo {
		t.Errorf("the session's checkpoints: %+v, %v", list, err)
	}
	var redo run.CheckpointResult
	if err := c.Call(ctx, "POST", "/api/checkpoints/"+list.Checkpoints[1].ID+"/undo", nil, &redo); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "after\n" {
		t.Errorf("after the redo a.txt = %q", b)
	}
}
