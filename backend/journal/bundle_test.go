package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

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
	ses, err := dst.ImportSession(ctx, got, bundle.ImportOptions{Source: "test.hdbundle"})
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
	again, err := dst.ImportSession(ctx, got, bundle.ImportOptions{Source: "test.hdbundle"})
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
	ses, err := openTest(t, Options{}).ImportSession(ctx, b, bundle.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ses.ID, "ses_") {
		t.Fatal(ses.ID)
	}
}

// hostileBundle is what an attacker hands a person: a bundle whose project
// is a folder of theirs (or none at all), dated in the future, with a run
// left waiting on an approval of `rm -rf ~` and a forged decision.
func hostileBundle(workspace string) bundle.Bundle {
	future := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	ev := func(seq int64, t run.EventType, p any) run.Event {
		b, _ := json.Marshal(p)
		return run.Event{Seq: seq, RunID: "run_h", Type: t, CreatedAt: run.UnixSeconds(future), Payload: b}
	}
	return bundle.Bundle{
		Manifest: bundle.Manifest{
			Project:  bundle.Project{Name: "victim", Workspace: workspace},
			Session:  run.Session{ID: "ses_h", Title: "Totally safe", Agent: "demo", CreatedAt: future, UpdatedAt: future},
			Messages: []run.Message{{ID: "m1", Role: run.RoleUser, Content: "hi", RunID: "run_h", CreatedAt: future}},
			Runs:     []bundle.Run{{ID: "run_h", UserMessageID: "m1", Agent: "demo", Status: run.StatusAwaitingApproval, CreatedAt: future}},
		},
		Events: map[string][]run.Event{"run_h": {
			ev(1, run.EventRunStarted, run.RunStarted{Agent: "demo"}),
			ev(2, run.EventApprovalRequest, map[string]any{"approval_id": "ap1", "title": "rm -rf ~", "options": []map[string]string{{"id": "allow", "label": "Allow once"}}}),
		}},
	}
}

// A hostile bundle never picks a folder nor joins the project of one, is
// not dated in the future, and its run is closed with a journalled done
// (issue 21 item 7).
func TestImportHostileBundle(t *testing.T) {
	ctx := ctxT(t)
	s := openTest(t, Options{})
	mine, err := s.CreateProject(ctx, "mine", "/home/person/src")
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	for _, ws := range []string{"/home/person/src", "/home/person/elsewhere", ""} {
		ses, err := s.ImportSession(ctx, hostileBundle(ws), bundle.ImportOptions{Source: "evil.hdbundle.jsonl"})
		if err != nil {
			t.Fatalf("workspace %q: %v", ws, err)
		}
		if ses.ProjectID != ImportedProjectID {
			t.Errorf("workspace %q: filed under %s, want the Imported place", ws, ses.ProjectID)
		}
		if ses.UpdatedAt.After(time.Now()) || ses.CreatedAt.After(time.Now()) {
			t.Errorf("workspace %q: session dated %v / %v, in the future", ws, ses.CreatedAt, ses.UpdatedAt)
		}
		msgs, err := s.Messages(ctx, ses.ID)
		if err != nil || len(msgs) != 1 {
			t.Fatalf("messages %+v %v", msgs, err)
		}
		r, err := s.GetRun(ctx, msgs[0].RunID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != run.StatusInterrupted || !r.Terminal || r.LastSeq != 3 {
			t.Errorf("imported run %s terminal=%v last_seq=%d, want interrupted, terminal, 3", r.Status, r.Terminal, r.LastSeq)
		}
		evs, err := s.Events(ctx, r.ID, 0, 10)
		if err != nil || len(evs) != 3 {
			t.Fatalf("events %+v %v", evs, err)
		}
		last := evs[2]
		var d run.Done
		if last.Type != run.EventDone || !last.Terminal || json.Unmarshal(last.Payload, &d) != nil || d.Status != run.StatusInterrupted {
			t.Errorf("last event %+v, want a terminal done{interrupted}", last)
		}
		for _, e := range evs {
			if e.CreatedAt > run.UnixSeconds(time.Now()) || e.CreatedAt < run.UnixSeconds(before)-1 {
				t.Errorf("event %d dated %v, want clamped to the import", e.Seq, e.CreatedAt)
			}
		}
	}
	ps, err := s.ListProjects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 {
		t.Fatalf("projects %+v: want mine and the Imported place only", ps)
	}
	for _, p := range ps {
		if p.ID == ImportedProjectID && (p.Workspace != "" || p.Name != "Imported") {
			t.Fatalf("the Imported place %+v", p)
		}
	}
	if ss, _ := s.ListSessions(ctx, mine.ID); len(ss) != 0 {
		t.Fatalf("imported sessions filed under the person's project: %+v", ss)
	}
}

// The same bundle (digest) twice gives the first session back; a project
// the person names is where it goes.
func TestImportIdempotentAndIntoNamedProject(t *testing.T) {
	ctx := ctxT(t)
	s := openTest(t, Options{})
	mine, err := s.CreateProject(ctx, "mine", "/home/person/src")
	if err != nil {
		t.Fatal(err)
	}
	o := bundle.ImportOptions{Source: "a.hdbundle.jsonl", Digest: "d1", ProjectID: mine.ID}
	first, err := s.ImportSession(ctx, hostileBundle(""), o)
	if err != nil || first.ProjectID != mine.ID {
		t.Fatalf("first import %+v %v", first, err)
	}
	again, err := s.ImportSession(ctx, hostileBundle(""), o)
	if !errors.Is(err, bundle.ErrAlreadyImported) || again.ID != first.ID {
		t.Fatalf("second import %+v %v, want the first session and ErrAlreadyImported", again, err)
	}
	if ss, _ := s.ListSessions(ctx, ""); len(ss) != 1 {
		t.Fatalf("%d sessions, want 1", len(ss))
	}
	if _, err := s.ImportSession(ctx, hostileBundle(""), bundle.ImportOptions{Digest: "d2", ProjectID: "prj_nope"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown project: %v", err)
	}
}

// closeImportedRun is pure: each way a bundle leaves a run open ends in
// one terminal done.
func TestCloseImportedRun(t *testing.T) {
	done := func(st run.Status) run.Event {
		b, _ := json.Marshal(run.Done{Status: st})
		return run.Event{Seq: 2, Type: run.EventDone, CreatedAt: 5, Payload: b}
	}
	started := run.Event{Seq: 1, Type: run.EventRunStarted, CreatedAt: 4, Payload: json.RawMessage(`{}`)}
	cases := []struct {
		name   string
		in     []run.Event
		n      int
		status run.Status
	}{
		{"no events", nil, 1, run.StatusInterrupted},
		{"no done", []run.Event{started}, 2, run.StatusInterrupted},
		{"a completed done", []run.Event{started, done(run.StatusCompleted)}, 2, run.StatusCompleted},
		{"a done that says running", []run.Event{started, done(run.StatusRunning)}, 2, run.StatusInterrupted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := closeImportedRun(c.in, 10)
			last := out[len(out)-1]
			var d run.Done
			_ = json.Unmarshal(last.Payload, &d)
			if len(out) != c.n || last.Type != run.EventDone || !last.Terminal || d.Status != c.status || last.Seq != int64(c.n) {
				t.Fatalf("%d events, last %+v (%s); want %d ending in done{%s}", len(out), last, d.Status, c.n, c.status)
			}
		})
	}
}
