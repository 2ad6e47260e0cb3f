package service_test

import (
	"sync"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// fakeRadar records what the bus told it.
type fakeRadar struct {
	mu   sync.Mutex
	seen []string // "project/session"
	last map[string]run.Conflicts
}

func (f *fakeRadar) FilesChanged(projectID, sessionID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen = append(f.seen, projectID+"/"+sessionID)
}

func (f *fakeRadar) Conflicts(projectID string) (run.Conflicts, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.last[projectID]
	return c, ok
}

// A run's file.changed and its end reach the radar (tokens do not); its
// answer goes out as conflicts.changed, and a watcher that comes later
// finds it in its snapshot until the overlap is gone.
func TestRadarOnTheBus(t *testing.T) {
	s, m, ses := busWorld(t, service.Options{})
	rad := &fakeRadar{last: map[string]run.Conflicts{}}
	s.SetRadar(rad)
	ctx, res, ch := watchedRun(t, s, ses)
	next(t, ch) // snapshot
	m.Append(res.RunID, run.EventTokenDelta, run.TextDelta{Text: "x"})
	m.Append(res.RunID, run.EventFileChanged, run.FileChanged{Path: "api/server.go", Action: "modified"})
	m.Append(res.RunID, run.EventDone, run.Done{})
	nextRun(t, ch) // the run ended: its events were all applied
	rad.mu.Lock()
	seen := append([]string(nil), rad.seen...)
	rad.mu.Unlock()
	want := ses.ProjectID + "/" + ses.ID
	if len(seen) != 2 || seen[0] != want || seen[1] != want {
		t.Fatalf("the radar heard %q, want %q twice (file.changed, done)", seen, want)
	}

	c := run.Conflicts{ProjectID: ses.ProjectID, Overlaps: []run.Overlap{{
		A: run.OverlapSide{WorkspaceID: "wsp_a", Branch: "hermesdesk/a"}, B: run.OverlapSide{WorkspaceID: "wsp_b", Branch: "hermesdesk/b"},
		Files: []run.OverlapFile{{Path: "api/server.go"}}}}, Order: []string{"wsp_a", "wsp_b"},
		Lines: []string{"2 workspaces change api/server.go"}}
	s.ConflictsChanged(c)
	for {
		msg := next(t, ch)
		if msg.Type == run.WatchConflictsChanged {
			if msg.Conflicts == nil || msg.Conflicts.Lines[0] != c.Lines[0] {
				t.Fatalf("conflicts.changed carries %+v", msg.Conflicts)
			}
			break
		}
	}
	late, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap := next(t, late); len(snap.Snapshot.Conflicts) != 1 || snap.Snapshot.Conflicts[0].ProjectID != ses.ProjectID {
		t.Fatalf("a late watcher's snapshot holds %+v", snap.Snapshot.Conflicts)
	}
	s.ConflictsChanged(run.Conflicts{ProjectID: ses.ProjectID, Overlaps: []run.Overlap{}})
	snap, err := s.Snapshot(ctx)
	if err != nil || len(snap.Snapshot.Conflicts) != 0 {
		t.Fatalf("after the overlap went: %+v, %v", snap.Snapshot.Conflicts, err)
	}

	// The route's answer is the radar's; before its first look, empty.
	rad.mu.Lock()
	rad.last[ses.ProjectID] = c
	rad.mu.Unlock()
	if got, err := s.Conflicts(ctx, ses.ProjectID); err != nil || len(got.Overlaps) != 1 || got.Order[1] != "wsp_b" {
		t.Fatalf("Conflicts = %+v, %v", got, err)
	}
	if _, err := s.Conflicts(ctx, "prj_none"); err == nil {
		t.Fatal("a project that does not exist has conflicts")
	}
}
