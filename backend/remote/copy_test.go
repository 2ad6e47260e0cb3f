//go:build unix

package remote

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Each remote session is copied into the local journal as its runs end
// (through the history import's doors): with the link cut, the session
// reads and searches here; a second run is appended once, and copying
// again adds nothing (docs/ARCHITECTURE.md §Remote cores).
func TestLocalCopyOfRemoteSessions(t *testing.T) {
	rc := startRemoteCore(t)
	link := newRelay(t, "h1", rc.socket)
	st, err := journal.Open(filepath.Join(t.TempDir(), "local.db"), journal.Options{Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lookup := func(host string) (Link, bool) { return link, host == "h1" }
	copier := NewCopier(st, lookup, quiet)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	copied := make(chan string, 16)
	f := New(link, newMemSink(), Options{Log: quiet, MinBackoff: 20 * time.Millisecond, Message: func(host string, m run.WatchMessage) {
		copier.OnMessage(ctx, host, m)
		if m.Type == run.WatchRunChanged && m.Run.Status.Terminal() {
			copied <- m.Run.RunID
		}
	}})
	done := make(chan struct{})
	go func() { f.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	awaitCopy := func(runID string) {
		t.Helper()
		for {
			select {
			case id := <-copied:
				if id == runID {
					return
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("run %s was not copied", runID)
			}
		}
	}

	first := rc.startRun(t, "/scenario demo")
	last := rc.finish(t, first.RunID)
	awaitCopy(first.RunID)

	link.Cut() // offline from here: everything read below is local
	sessions, err := st.ListSessions(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var local *run.Session
	for i := range sessions {
		if sessions[i].ImportedFrom == Source("h1") {
			local = &sessions[i]
		}
	}
	if local == nil {
		t.Fatalf("no local copy among %+v", sessions)
	}
	runs, err := st.ListRuns(ctx, run.RunFilter{SessionID: local.ID})
	if err != nil || len(runs) != 1 {
		t.Fatalf("copied runs %+v %v, want 1", runs, err)
	}
	evs, err := st.Events(ctx, runs[0].ID, 0, 10000)
	if err != nil || int64(len(evs)) != last || runs[0].Status != run.StatusCompleted {
		t.Fatalf("copied run: %d events (%v), status %s; want %d, completed", len(evs), err, runs[0].Status, last)
	}
	hits, err := st.Search(ctx, "harmless", 10)
	if err != nil || len(hits) == 0 || hits[0].SessionID != local.ID {
		t.Fatalf("offline search: %+v %v", hits, err)
	}

	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	var second run.StartResult
	if err := rc.client.Call(ctx, "POST", "/api/runs", run.StartRequest{SessionID: sessionOf(t, rc, first.RunID),
		Message: "/scenario demo", ClientRequestID: service.NewRequestID()}, &second); err != nil {
		t.Fatal(err)
	}
	rc.finish(t, second.RunID)
	awaitCopy(second.RunID)
	if runs, _ := st.ListRuns(ctx, run.RunFilter{SessionID: local.ID}); len(runs) != 2 {
		t.Fatalf("after the second run the copy holds %d runs, want 2", len(runs))
	}
	if n, err := copier.Copy(ctx, "h1", sessionOf(t, rc, first.RunID)); n != 0 || err != nil {
		t.Fatalf("copying again added %d (%v), want 0", n, err)
	}
}

func sessionOf(t testing.TB, rc *remoteCore, runID string) string {
	t.Helper()
	var r run.Run
	if err := rc.client.Call(context.Background(), "GET", "/api/runs/"+runID, nil, &r); err != nil {
		t.Fatal(err)
	}
	return r.SessionID
}

func TestEndedRuns(t *testing.T) {
	done, going := run.StatusCompleted, run.StatusRunning
	mk := func(statuses ...run.Status) bundle.Bundle {
		var m bundle.Manifest
		for i, s := range statuses {
			id := string(rune('a' + i))
			m.Runs = append(m.Runs, bundle.Run{ID: "r" + id, UserMessageID: "u" + id, AssistantMessageID: "m" + id, Status: s})
			m.Messages = append(m.Messages, run.Message{ID: "u" + id}, run.Message{ID: "m" + id, RunID: "r" + id})
		}
		return bundle.Bundle{Manifest: m}
	}
	for _, tc := range []struct {
		name           string
		in             bundle.Bundle
		runs, messages int
	}{
		{"all ended", mk(done, run.StatusFailed), 2, 4},
		{"the last still going is left for later", mk(done, going), 1, 2},
		{"nothing after a run still going", mk(going, done), 0, 0},
		{"empty", mk(), 0, 0},
	} {
		got := endedRuns(tc.in)
		if len(got.Manifest.Runs) != tc.runs || len(got.Manifest.Messages) != tc.messages {
			t.Errorf("%s: %d runs, %d messages; want %d, %d", tc.name, len(got.Manifest.Runs), len(got.Manifest.Messages), tc.runs, tc.messages)
		}
	}
}
