package core

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
)

// Settings → Quit asks the tray's question (issue 23.9): the window's quit
// carries the person's choice, and the core does with the active runs what
// the tray's "Keep N runs…" / "Stop N runs and quit" do — one decision for
// both doors.
func TestWindowQuitKeepsOrStopsRunsLikeTheTray(t *testing.T) {
	tests := []struct {
		name, body string
		status     int
		stopped    []string // nil: none
		quits      bool
	}{
		{"stop", `{"runs":"stop"}`, http.StatusOK, []string{"r1", "r2"}, true},
		{"keep", `{"runs":"keep"}`, http.StatusOK, nil, true},
		{"an older window's empty body keeps", ``, http.StatusOK, nil, true},
		{"an unknown choice is refused and quits nothing", `{"runs":"maybe"}`, http.StatusBadRequest, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var stopped []string
			k := &Core{log: slog.New(slog.DiscardHandler), quitCh: make(chan struct{}),
				stopRun: func(id string) { mu.Lock(); stopped = append(stopped, id); mu.Unlock() }}
			k.trayModel = traystate.NewModel(func(traystate.View) {})
			now := time.Now()
			k.onWatch(run.WatchMessage{Type: run.WatchSnapshotType, Snapshot: &run.WatchSnapshot{Runs: []run.RunState{
				{RunID: "r1", SessionID: "s1", Status: run.StatusRunning, CreatedAt: now},
				{RunID: "r2", SessionID: "s2", Status: run.StatusQueued, CreatedAt: now.Add(time.Second)},
				// Another host's run goes on there whatever this quit does.
				{RunID: "r3", SessionID: "s3", Host: "devbox", Status: run.StatusRunning, CreatedAt: now.Add(2 * time.Second)},
			}}})
			req := httptest.NewRequest(http.MethodPost, "/core/quit", strings.NewReader(tc.body))
			rec := httptest.NewRecorder()
			k.routes().ServeHTTP(rec, req)
			if rec.Code != tc.status {
				body, _ := io.ReadAll(rec.Body)
				t.Fatalf("status %d (%s), want %d", rec.Code, body, tc.status)
			}
			if !tc.quits {
				// A refusal answers before anything starts: no wait needed.
				select {
				case <-k.quitCh:
					t.Fatal("quit although the request was refused")
				default:
				}
			} else {
				select {
				case <-k.quitCh:
				case <-time.After(5 * time.Second):
					t.Fatal("the core never quit")
				}
			}
			mu.Lock()
			defer mu.Unlock()
			slices.Sort(stopped)
			if !slices.Equal(stopped, tc.stopped) {
				t.Fatalf("stopped %v, want %v", stopped, tc.stopped)
			}
		})
	}
}
