package shim

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// A run in a git workspace whose agent changes a tracked file by a means
// it does not report (a shell command) ends with file.changed from the
// workspace snapshot, before done (docs/ARCHITECTURE.md §Events).
func TestRunReportsWorkspaceChanges(t *testing.T) {
	gitcmdtest.Need(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the snapshots' temporary folder must go with the run
	ws := t.TempDir()
	gitcmdtest.Git(t, ws, "init", "-q")
	notes := filepath.Join(ws, "notes.txt")
	os.WriteFile(notes, []byte("one\n"), 0o644)
	gitcmdtest.Git(t, ws, "add", ".")
	gitcmdtest.Git(t, ws, "commit", "-qm", "start")
	os.WriteFile(filepath.Join(ws, "before.txt"), []byte("the person's own edit\n"), 0o644)

	c := &fakeConn{turn: func(context.Context, adapter.TurnRequest, adapter.Emitter) adapter.TurnResult {
		f, _ := os.OpenFile(notes, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("two\n")
		f.Close()
		return adapter.TurnResult{StopReason: "end_turn"}
	}}
	h := startHarnessWith(t, connAdapter(adapter.Capabilities{}, c), nil, func(s *control.Spec) { s.Workspace = ws })
	h.wait()
	h.done() // exactly one, and last
	var files []run.FileChanged
	for _, ev := range h.j.all() {
		if ev.Type == run.EventFileChanged {
			var f run.FileChanged
			if err := json.Unmarshal(ev.Payload, &f); err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	if len(files) != 1 {
		t.Fatalf("files %+v, want notes.txt only", files)
	}
	f := files[0]
	if f.Path != "notes.txt" || f.Source != run.SourceWorkspace || f.Added != 1 || f.Removed != 0 || !strings.Contains(f.Diff, "+two\n") {
		t.Fatalf("file.changed %+v", f)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the run left %d entries in the temp folder: %s", len(left), left[0].Name())
	}
}
