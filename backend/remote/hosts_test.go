//go:build unix

package remote

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The local core stops mid-run (its followers with it) and starts again:
// from the journal's cursors it catches up and tells the run's end — which
// happened while it was away — exactly once, not again on the next
// reconnect (docs/ARCHITECTURE.md §Remote cores).
func TestRestartTellsWhatHappenedOnce(t *testing.T) {
	rc := startRemoteCore(t)
	link := newRelay(t, "h1", rc.socket)
	st, err := journal.Open(filepath.Join(t.TempDir(), "local.db"), journal.Options{Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sink := JournalSink{st}

	var mu sync.Mutex
	var runID string
	ends := 0
	progress := make(chan int64, 1024)
	snapshots := make(chan struct{}, 16)
	o := Options{Log: quiet, MinBackoff: 20 * time.Millisecond, Message: func(host string, m run.WatchMessage) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case m.Type == run.WatchSnapshotType:
			snapshots <- struct{}{}
		case m.Run != nil && m.Run.RunID == runID && m.Type == run.WatchDoorbell:
			progress <- m.Run.LastSeq
		case m.Run != nil && m.Run.RunID == runID && m.Type == run.WatchRunChanged && m.Run.Status.Terminal():
			ends++
		}
	}}
	first := NewHosts(sink, o)
	first.Follow(link)
	waitSignal(t, snapshots, "first snapshot")
	res := rc.startRun(t, "/scenario trickle")
	mu.Lock()
	runID = res.RunID
	mu.Unlock()
	for seq := int64(0); seq < 5; {
		select {
		case seq = <-progress:
		case <-time.After(60 * time.Second):
			t.Fatal("the follower got no events")
		}
	}
	first.Close()
	last := rc.finish(t, res.RunID)
	mu.Lock()
	if ends != 0 {
		t.Fatalf("the end was told before it happened")
	}
	mu.Unlock()

	second := NewHosts(sink, o)
	defer second.Close()
	second.Follow(link)
	waitSignal(t, snapshots, "snapshot after the restart")
	link.Cut()
	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, snapshots, "snapshot after a reconnect")
	mu.Lock()
	if ends != 1 {
		t.Errorf("the run's end was told %d times, want once", ends)
	}
	mu.Unlock()
	if cur, err := st.RemoteCursors(t.Context(), "h1"); err != nil || cur[res.RunID] != last {
		t.Fatalf("kept cursor %d (%v), want %d", cur[res.RunID], err, last)
	}
	if l, ok := second.Link("h1"); !ok || l.Socket() != link.Socket() {
		t.Fatalf("Link(h1) = %v, %v", l, ok)
	}
	second.Forget("h1")
	if _, ok := second.Link("h1"); ok {
		t.Fatal("a forgotten host is still found")
	}
}
