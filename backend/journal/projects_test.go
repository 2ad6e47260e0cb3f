package journal

import (
	"errors"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Renaming keeps the folder; removing takes the project's sessions, runs,
// events and search entries with it, but only once no run is active.
func TestRenameAndDeleteProject(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	other, err := s.CreateProject(ctx, "other", "/tmp/other")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.RenameProject(ctx, f.ses.ProjectID, "  Renamed  ")
	if err != nil || got.Name != "Renamed" || got.Workspace != "/tmp/demo" {
		t.Fatalf("rename = %+v, %v", got, err)
	}
	for _, c := range []struct {
		id, name string
		want     error
	}{
		{f.ses.ProjectID, "   ", ErrInvalid},
		{"prj_nope", "x", ErrNotFound},
	} {
		if _, err := s.RenameProject(ctx, c.id, c.name); !errors.Is(err, c.want) {
			t.Errorf("RenameProject(%q, %q) = %v, want %v", c.id, c.name, err, c.want)
		}
	}

	w := f.writer(t, f.sub.Run.ID)
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "wombat"})
	w.Flush(ctx)
	if err := s.DeleteProject(ctx, f.ses.ProjectID); !errors.Is(err, ErrConflict) {
		t.Fatalf("delete with an active run: %v", err)
	}
	if _, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted}); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.Search(ctx, "wombat", 10); len(hits) != 1 {
		t.Fatalf("indexed before delete: %+v", hits)
	}
	if err := s.DeleteProject(ctx, f.ses.ProjectID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteProject(ctx, f.ses.ProjectID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if hits, _ := s.Search(ctx, "wombat", 10); len(hits) != 0 {
		t.Fatalf("removed project still found: %+v", hits)
	}
	var left int
	s.DB().QueryRow(`SELECT (SELECT COUNT(*) FROM sessions) + (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM runs) + (SELECT COUNT(*) FROM messages)`).Scan(&left)
	if left != 0 {
		t.Fatalf("%d rows of the removed project remain", left)
	}
	ps, err := s.ListProjects(ctx)
	if err != nil || len(ps) != 1 || ps[0].ID != other.ID {
		t.Fatalf("projects left = %+v, %v", ps, err)
	}
}

// Locate…: a project follows its moved folder, keeping its name and sessions.
func TestMoveProject(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	got, err := s.MoveProject(ctx, f.ses.ProjectID, " /tmp/demo-moved ")
	if err != nil || got.Workspace != "/tmp/demo-moved" || got.Name == "" {
		t.Fatalf("move = %+v, %v", got, err)
	}
	if ses, err := s.ListSessions(ctx, f.ses.ProjectID); err != nil || len(ses) != 1 {
		t.Fatalf("sessions after the move: %+v, %v", ses, err)
	}
	if _, err := s.MoveProject(ctx, f.ses.ProjectID, "  "); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty folder: %v", err)
	}
	if _, err := s.MoveProject(ctx, "prj_nope", "/x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown project: %v", err)
	}
}

// A session carries its newest run's status, so the sidebar can mark a
// session whose last run failed (issue 23.13).
func TestSessionCarriesItsLastRunStatus(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	empty, err := s.CreateSession(ctx, run.Session{ProjectID: f.ses.ProjectID, Agent: "demo", Title: "none"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.EndRun(ctx, f.sub.Run.ID, run.StatusFailed, "the agent exited", ""); err != nil {
		t.Fatal(err)
	}
	// A follow-up queued and cancelled before it started does not hide it.
	withdrawn := f.submit(t, "and then", "")
	if _, err := s.EndRun(ctx, withdrawn.Run.ID, run.StatusCancelled, "", ""); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetSession(ctx, f.ses.ID)
	if err != nil || got.LastRunStatus != run.StatusFailed {
		t.Fatalf("session after a failed run: %+v, %v", got, err)
	}
	list, err := s.ListSessions(ctx, f.ses.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]run.Status{f.ses.ID: run.StatusFailed, empty.ID: ""}
	for _, ses := range list {
		if ses.LastRunStatus != want[ses.ID] {
			t.Errorf("session %s: last run %q, want %q", ses.ID, ses.LastRunStatus, want[ses.ID])
		}
	}
}
