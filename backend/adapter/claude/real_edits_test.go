package claude

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// The real CLI makes the fake model's edit scenario with its own Write and
// Edit tools (Bash for the deletion; 2.1.197 offers no MultiEdit). The
// recording, testdata/real-edits.jsonl (HERMESDESK_RECORD=1, see
// `make record-transcripts`), feeds the diff mapping's golden test
// (docs/ARCHITECTURE.md §Events).
func TestRealClaudeEdits(t *testing.T) {
	e := newRealEnv(t)
	if err := os.WriteFile(filepath.Join(e.workspace, "old.txt"), []byte("bye\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := e.start(t, "")
	rec := agenttest.NewRecorder()
	rec.OnApproval(func(a run.ApprovalRequested) {
		if err := c.RespondApproval(context.Background(), a.ApprovalID, OptionAllow); err != nil {
			t.Errorf("respond: %v", err)
		}
	})
	res := agenttest.Turn(t, c, "[scenario:edit] change the files", rec)
	if res.Err != nil || !strings.Contains(rec.Text(), "Done:") {
		t.Fatalf("result %+v, text %q", res, rec.Text())
	}
	want := map[string]string{"notes.md": "replaced\n", "hello.txt": "hello\nworld\n"}
	for name, body := range want {
		if b, err := os.ReadFile(filepath.Join(e.workspace, name)); err != nil || string(b) != body {
			t.Errorf("%s = %q, %v; want %q", name, b, err, body)
		}
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "old.txt")); !os.IsNotExist(err) {
		t.Errorf("old.txt not deleted: %v", err)
	}
	var fcs []run.FileChanged
	for _, p := range rec.OfType(run.EventFileChanged) {
		fcs = append(fcs, p.(run.FileChanged))
	}
	// Write, Edit, Write, Write; the Bash rm is no edit tool (the workspace
	// snapshot reports it).
	if len(fcs) != 4 || fcs[3].Path != "notes.md" || !strings.Contains(fcs[3].Diff, "-- ship it\n") || !strings.Contains(fcs[3].Diff, "+replaced\n") {
		t.Fatalf("file.changed %+v", fcs)
	}
	e.save(t, "real-edits.jsonl")
}
