package traystate

import (
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakeclock"
)

// The radar's lines reach the menu from the bus: a snapshot's, then
// conflicts.changed per project, gone when the project's overlap goes;
// each opens the window.
func TestModelConflictLines(t *testing.T) {
	var last View
	n := 0
	m := NewModel(func(v View) { last, n = v, n+1 })
	m.clock = testClock{fakeclock.New(t0)}
	m.Apply(run.WatchMessage{Type: run.WatchSnapshotType, Snapshot: &run.WatchSnapshot{Conflicts: []run.Conflicts{
		{ProjectID: "prj_b", Lines: []string{"2 workspaces change api/server.go"}}}}})
	want := []string{"2 workspaces change api/server.go", "---", LabelNewSession, LabelOpen, LabelAutostart, "---", LabelQuit}
	if got := labels(last.Items); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("after the snapshot\n got %q\nwant %q", got, want)
	}
	if last.Items[0].Action != ActionOpen {
		t.Errorf("a radar line opens the window: %+v", last.Items[0])
	}
	m.Apply(run.WatchMessage{Type: run.WatchConflictsChanged, Conflicts: &run.Conflicts{ProjectID: "prj_a",
		Lines: []string{"3 workspaces change go.mod", "2 workspaces change a.go", "2 workspaces change b.go", "2 workspaces change c.go"}}})
	want = []string{"3 workspaces change go.mod", "2 workspaces change a.go", "2 workspaces change b.go", "2 workspaces change c.go", "---"}
	if got := labels(last.Items[:5]); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("two projects, capped at %d lines\n got %q\nwant %q", maxConflictLines, got, want)
	}
	m.Apply(run.WatchMessage{Type: run.WatchConflictsChanged, Conflicts: &run.Conflicts{ProjectID: "prj_a"}})
	if got := labels(last.Items); got[0] != "2 workspaces change api/server.go" || got[1] != "---" {
		t.Fatalf("after prj_a's overlap went: %q", got)
	}
	sent := n
	m.Apply(run.WatchMessage{Type: run.WatchConflictsChanged, Conflicts: &run.Conflicts{ProjectID: "prj_a"}})
	if n != sent {
		t.Fatal("an answer that changed nothing sent a view")
	}
}
