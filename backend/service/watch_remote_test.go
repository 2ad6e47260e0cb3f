package service_test

import (
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// A remote core's bus republished here (docs/ARCHITECTURE.md §Remote
// cores): tagged with its host, and what a person sees announced once —
// not again for each reconnect's snapshot, nor for a replayed end.
func TestPublishRemoteTagsAndAnnouncesOnce(t *testing.T) {
	s, _, _ := busWorld(t, service.Options{})
	ctx, ch := watching(t, s)
	// marker publishes a remote session change and expects it next:
	// whatever was published before it (and should not have been) shows.
	marker := func(what string) {
		t.Helper()
		s.PublishRemote("h1", run.WatchMessage{Type: run.WatchSessionChanged, Session: &run.SessionChange{Kind: run.SessionUpdated, SessionID: what}})
		m := next(t, ch)
		if m.Type != run.WatchSessionChanged || m.Session.SessionID != what {
			t.Fatalf("%s: got %s %+v %+v, want only the marker", what, m.Type, m.Run, m.Session)
		}
		if m.Session.Host != "h1" {
			t.Fatalf("%s: session change not tagged with its host: %+v", what, m.Session)
		}
	}
	asking := run.RunState{RunID: "r1", SessionID: "s1", Status: run.StatusAwaitingApproval, LastSeq: 7, CreatedAt: time.Now(),
		Pending: &run.PendingPrompt{Kind: run.PendingApproval, ID: "a1", Title: "Run make", Options: []run.ApprovalOption{{ID: "allow", Label: "Allow"}}}}
	snap := func(runs ...run.RunState) run.WatchMessage {
		return run.WatchMessage{Type: run.WatchSnapshotType, Snapshot: &run.WatchSnapshot{Runs: runs}}
	}

	s.PublishRemote("h1", snap(asking))
	got := nextRun(t, ch)
	if got.RunID != "r1" || got.Host != "h1" || got.Pending == nil || got.Pending.ID != "a1" {
		t.Fatalf("first snapshot's run: %+v", got)
	}
	// The link dropped and came back: the same state, more events.
	again := asking
	again.LastSeq = 9
	s.PublishRemote("h1", run.WatchMessage{Type: run.WatchGoodbye, Reason: "disconnected"})
	s.PublishRemote("h1", snap(again))
	marker("after a reconnect with nothing new")

	if st, _ := s.Snapshot(ctx); len(st.Snapshot.Runs) != 1 || st.Snapshot.Runs[0].Host != "h1" || st.Snapshot.Runs[0].LastSeq != 9 {
		t.Fatalf("local snapshot holds %+v, want r1 of h1 at seq 9", st.Snapshot.Runs)
	}
	// Another host's run with the same shape is its own.
	s.PublishRemote("h2", snap())
	marker("an empty snapshot of another host")

	done := asking
	done.Status, done.Pending, done.LastSeq = run.StatusCompleted, nil, 12
	for range 2 { // the end, then its replay after a reconnect
		s.PublishRemote("h1", run.WatchMessage{Type: run.WatchRunChanged, Run: &done})
	}
	if got := nextRun(t, ch); got.Status != run.StatusCompleted || got.Host != "h1" {
		t.Fatalf("end: %+v", got)
	}
	marker("after the replayed end")
	s.PublishRemote("h1", snap())
	marker("after a snapshot without the ended run")
	if st, _ := s.Snapshot(ctx); len(st.Snapshot.Runs) != 0 {
		t.Fatalf("local snapshot still holds %+v", st.Snapshot.Runs)
	}
}

// A host's reachability is told when it moves, and a new watcher finds it
// in the snapshot.
func TestPublishRemoteHostReachability(t *testing.T) {
	s, _, _ := busWorld(t, service.Options{})
	ctx, ch := watching(t, s)
	reach := func(up bool) {
		s.PublishRemote("h1", run.WatchMessage{Type: run.WatchHostChanged, HostState: &run.HostState{Reachable: up, Error: "words"}})
	}
	reach(true)
	reach(false)
	reach(false) // each failed retry says it again: not news
	reach(true)
	s.PublishRemote("h1", run.WatchMessage{Type: run.WatchSessionChanged, Session: &run.SessionChange{SessionID: "marker"}})
	var got []bool
	for {
		m := next(t, ch)
		if m.Type == run.WatchSessionChanged {
			break
		}
		if m.Type != run.WatchHostChanged || m.HostState.Host != "h1" {
			t.Fatalf("unexpected %s %+v", m.Type, m.HostState)
		}
		got = append(got, m.HostState.Reachable)
	}
	if len(got) != 3 || !got[0] || got[1] || !got[2] {
		t.Fatalf("told reachability %v, want [true false true]", got)
	}
	reach(false)
	snap, _ := s.Snapshot(ctx)
	if hs := snap.Snapshot.Hosts; len(hs) != 1 || hs[0].Host != "h1" || hs[0].Reachable || hs[0].Error != "words" {
		t.Fatalf("snapshot's hosts %+v", hs)
	}
}

// A host's workspace.changed reaches this bus tagged with the host, so the
// window offers that host's worktrees in its sessions (and only there).
func TestPublishRemoteForwardsWorkspaces(t *testing.T) {
	s, _, _ := busWorld(t, service.Options{})
	_, ch := watching(t, s)
	s.PublishRemote("h1", run.WatchMessage{Type: run.WatchWorkspaceChanged, Workspace: &run.Workspace{ID: "ws1", ProjectID: "p1"}})
	m := next(t, ch)
	if m.Type != run.WatchWorkspaceChanged || m.Workspace == nil || m.Workspace.ID != "ws1" || m.Host != "h1" {
		t.Fatalf("got %s %+v host %q, want ws1 of h1", m.Type, m.Workspace, m.Host)
	}
}
