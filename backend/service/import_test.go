package service_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// A bundle written to a file, as `hermesdesk import` and POST /api/import
// read it: one from a folder the person has as a project, dated 2030.
func bundleFile(t *testing.T, workspace string) string {
	t.Helper()
	future := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var buf bytes.Buffer
	err := bundle.Encode(&buf, bundle.Bundle{Manifest: bundle.Manifest{
		Project:  bundle.Project{Name: "victim", Workspace: workspace},
		Session:  run.Session{ID: "ses_h", Title: "Brought along", Agent: "demo", UpdatedAt: future},
		Messages: []run.Message{{ID: "m1", Role: run.RoleUser, Content: "hi"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "s.hdbundle.jsonl")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Importing over the service (issue 21 item 7, issue 23 item 7): the
// session appears on the watch bus, the same bundle twice is "already
// imported", it never joins the person's project of the bundle's folder,
// and the Imported place it goes to runs nothing (no folder: an agent there
// would run inside the data dir).
func TestImportThroughTheService(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, j := journalWorld(t, service.Options{})
	ws := t.TempDir()
	mine, err := s.CreateProject(ctx, service.CreateProjectRequest{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap := next(t, ch); snap.Type != run.WatchSnapshotType {
		t.Fatalf("first message %+v", snap)
	}

	path := bundleFile(t, ws)
	res, err := s.ImportFile(ctx, service.ImportRequest{Path: path})
	if err != nil || res.AlreadyImported {
		t.Fatalf("import: %+v %v", res, err)
	}
	if res.ProjectID == mine.ID {
		t.Fatal("the bundle's folder filed the session under the person's project")
	}
	if res.UpdatedAt.After(time.Now()) {
		t.Fatalf("session dated %v", res.UpdatedAt)
	}
	msg := next(t, ch)
	if msg.Type != run.WatchSessionChanged || msg.Session.Kind != run.SessionCreated || msg.Session.SessionID != res.ID {
		t.Fatalf("watch message %+v, want session.changed created for %s", msg, res.ID)
	}

	again, err := s.ImportFile(ctx, service.ImportRequest{Path: path})
	if err != nil || !again.AlreadyImported || again.ID != res.ID {
		t.Fatalf("second import %+v %v, want already imported as %s", again, err, res.ID)
	}

	// The Imported place has no folder, so nothing starts there.
	ps, err := s.Projects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.ID == res.ProjectID && p.FolderMissing {
			t.Fatalf("the Imported place is flagged as a missing folder: %+v", p)
		}
	}
	_, err = s.CreateSession(ctx, service.CreateSessionRequest{ProjectID: res.ProjectID, Agent: "demo"})
	var se *service.Error
	if !errors.As(err, &se) || se.Code != service.CodeConflict {
		t.Fatalf("new session in the Imported place: %v, want a conflict", err)
	}

	// A project an older import made with no folder: a session there
	// never runs (its agent would run inside the data dir).
	if _, err := j.DB().ExecContext(ctx, `INSERT INTO projects (id, name, workspace, created_at) VALUES ('prj_old', 'old import', '', 1)`); err != nil {
		t.Fatal(err)
	}
	oldSes, err := j.CreateSession(ctx, run.Session{ProjectID: "prj_old", Agent: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartRun(ctx, run.StartRequest{SessionID: oldSes.ID, Message: "ls"}); !errors.As(err, &se) || se.Code != service.CodeConflict {
		t.Fatalf("a run in a project with no folder: %v, want a conflict", err)
	}

	// Into a project the person names.
	other := bundleFile(t, "")
	named, err := s.ImportFile(ctx, service.ImportRequest{Path: other, ProjectID: mine.ID})
	if err != nil || named.ProjectID != mine.ID {
		t.Fatalf("import into a named project: %+v %v", named, err)
	}
}
