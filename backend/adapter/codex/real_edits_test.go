package codex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// The real CLI makes the fake model's edit scenario with its apply_patch
// tool, one fileChange item a call; the overwrite of notes.md is declined.
// The recording, testdata/real-edits.jsonl (HERMESDESK_RECORD=1, see
// `make record-transcripts`), feeds the diff mapping's golden test
// (docs/ARCHITECTURE.md §Events).
func TestRealCodexEdits(t *testing.T) {
	e := newRealEnv(t)
	if err := os.WriteFile(filepath.Join(e.workspace, "old.txt"), []byte("bye\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := e.start(t, "")
	rec := agenttest.NewRecorder()
	rec.OnApproval(func(a run.ApprovalRequested) {
		decision := DecisionAccept
		if a.ToolCallID == "call_edit_3" {
			decision = DecisionDecline
		}
		if err := c.RespondApproval(context.Background(), a.ApprovalID, decision); err != nil {
			t.Errorf("respond: %v", err)
		}
	})
	res := agenttest.Turn(t, c, "[scenario:edit] change the files", rec)
	if res.Err != nil || !strings.Contains(rec.Text(), "Done:") {
		t.Fatalf("result %+v, text %q", res, rec.Text())
	}
	want := map[string]string{"notes.md": "## Todo\n- write tests\n- ship it\n", "hello.txt": "hello\nworld\n"}
	for name, body := range want {
		if b, err := os.ReadFile(filepath.Join(e.workspace, name)); err != nil || string(b) != body {
			t.Errorf("%s = %q, %v; want %q", name, b, err, body)
		}
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "old.txt")); !os.IsNotExist(err) {
		t.Errorf("old.txt not deleted: %v", err)
	}
	var got []string
	for _, p := range rec.OfType(run.EventFileChanged) {
		fc := p.(run.FileChanged)
		got = append(got, fc.ToolCallID+" "+fc.Action+" "+fc.Path)
	}
	if strings.Join(got, ", ") != "call_edit_0 created notes.md, call_edit_1 modified notes.md, call_edit_2 created hello.txt, call_edit_4 deleted old.txt" {
		t.Fatalf("file.changed %v", got)
	}
	e.save(t, "real-edits.jsonl")
}
