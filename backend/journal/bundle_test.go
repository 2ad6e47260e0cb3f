package journal

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A finished session exported as a bundle, encoded, decoded and imported
// into another journal reads the same, is found by search (messages, tool
// output, changes) and refuses new turns. Importing twice gives two sessions.
func TestExportImportRoundTrip(t *testing.T) {
	ctx := ctxT(t)
	src := openTest(t, Options{})
	f := newFixture(t, src)
	w := f.writer(t, f.sub.Run.ID)
	for _, e := range []struct {
		t run.EventType
		p any
	}{
		{run.EventRunStarted, run.RunStarted{Agent: "fake"}},
		{run.EventMessageUser, run.MessageUser{MessageID: f.sub.Turn.UserMessageID, Text: "hello"}},
		{run.EventToolStarted, run.ToolStarted{ToolCallID: "t1", Name: "shell", Title: "ls"}},
		{run.EventToolDone, run.ToolDone{ToolCallID: "t1", Status: "completed", Output: "zebrafile.txt"}},
		{run.EventFileChanged, run.FileChanged{Path: "notes.md", Action: "modified", Diff: "--- a/notes.md\n+++ b/notes.md\n@@ -1 +1,2 @@\n a\n+quokka\n", Added: 1}},
		{run.EventTokenDelta, run.TextDelta{Text: "the answer is marmalade"}},
		{run.EventDone, run.Done{Status: run.StatusCompleted}},
	} {
		if _, err := w.AppendSync(ctx, e.t, e.p); err != nil {
			t.Fatal(err)
		}
	}
	b, err := src.ExportSession(ctx, f.ses.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := bundle.Encode(&buf, b); err != nil {
		t.Fatal(err)
	}
	got, err := bundle.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.Events[f.sub.Run.ID]); n != 7 {
		t.Fatalf("%d events in the bundle, want 7", n)
	}

	dst := openTest(t, Options{})
	ses, err := dst.ImportSession(ctx, got, "test.hdbundle")
	if err != nil {
		t.Fatal(err)
	}
	if ses.ImportedFrom != "test.hdbundle" || ses.Agent != "fake" || ses.ID == f.ses.ID {
		t.Fatalf("imported session %+v", ses)
	}
	msgs, err := dst.Messages(ctx, ses.ID)
	if err != nil || len(msgs) != 2 || msgs[1].Content != "the answer is marmalade" || msgs[1].RunStatus != run.StatusCompleted {
		t.Fatalf("messages %+v %v", msgs, err)
	}
	evs, err := dst.Events(ctx, msgs[1].RunID, 0, 100)
	if err != nil || len(evs) != 7 || evs[6].Type != run.EventDone {
		t.Fatalf("events %d %v", len(evs), err)
	}
	for _, q := range []string{"marmalade", "zebrafile", "quokka", "hello"} {
		hits, err := dst.Search(ctx, q, 10)
		if err != nil || len(hits) == 0 || hits[0].SessionID != ses.ID {
			t.Errorf("search %q: %+v %v", q, hits, err)
		}
	}
	if _, err := dst.Submit(ctx, run.SubmitRequest{SessionID: ses.ID, Message: "more"}); !errors.Is(err, ErrSessionImported) {
		t.Fatalf("submit to an imported session: %v", err)
	}
	again, err := dst.ImportSession(ctx, got, "test.hdbundle")
	if err != nil || again.ID == ses.ID || again.ProjectID != ses.ProjectID {
		t.Fatalf("second import %+v %v", again, err)
	}
}

func TestExportOneRun(t *testing.T) {
	ctx := ctxT(t)
	s := openTest(t, Options{})
	f := newFixture(t, s)
	second := f.submit(t, "again", "")
	b, err := s.ExportSession(ctx, f.ses.ID, second.Run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Manifest.Runs) != 1 || b.Manifest.Runs[0].ID != second.Run.ID || len(b.Manifest.Messages) != 2 {
		t.Fatalf("manifest %+v", b.Manifest)
	}
	if _, err := s.ExportSession(ctx, f.ses.ID, "run_nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown run: %v", err)
	}
	// A run exported mid-way is imported as interrupted: it cannot go on.
	ses, err := openTest(t, Options{}).ImportSession(ctx, b, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ses.ID, "ses_") {
		t.Fatal(ses.ID)
	}
}
