//go:build unix

package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestNextBackoff(t *testing.T) {
	const lo, hi = time.Second, 30 * time.Second
	for _, tc := range []struct {
		name      string
		cur       time.Duration
		connected bool
		want      time.Duration
	}{
		{"a connection that got its snapshot starts over", 16 * time.Second, true, lo},
		{"a first failure doubles", lo, false, 2 * time.Second},
		{"failures keep doubling", 8 * time.Second, false, 16 * time.Second},
		{"capped", 16 * time.Second, false, hi},
		{"stays capped", hi, false, hi},
		{"never below the floor", 0, false, lo},
	} {
		if got := nextBackoff(tc.cur, tc.connected, lo, hi); got != tc.want {
			t.Errorf("%s: nextBackoff(%v, %v) = %v, want %v", tc.name, tc.cur, tc.connected, got, tc.want)
		}
	}
}

// A run on the host goes on while the link is cut and ends over there;
// when the link is back the follower has the session's events 1…last,
// each exactly once (docs/ARCHITECTURE.md §Remote cores).
func TestCatchUpAfterTheLinkWasCut(t *testing.T) {
	rc := startRemoteCore(t)
	link := newRelay(t, "h1", rc.socket)
	sink := newMemSink()
	goodbyes := make(chan string, 16)
	reach := make(chan run.HostState, 16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := New(link, sink, Options{Log: quiet, Message: func(host string, m run.WatchMessage) {
		switch m.Type {
		case run.WatchGoodbye:
			goodbyes <- host + ":" + m.Reason
		case run.WatchHostChanged:
			reach <- *m.HostState
		}
	}})
	done := make(chan struct{})
	go func() { f.Run(ctx); close(done) }()

	res := rc.startRun(t, "/scenario trickle")
	waitStored(t, sink, res.RunID, 5)
	link.Cut()
	select {
	case g := <-goodbyes:
		if g != "h1:disconnected" {
			t.Fatalf("goodbye %q, want h1:disconnected", g)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the follower did not notice the cut")
	}
	last := rc.finish(t, res.RunID)
	sink.mu.Lock()
	before := len(sink.seen[res.RunID])
	sink.mu.Unlock()
	if int64(before) >= last {
		t.Fatalf("the follower had all %d events before the link came back; the cut did not cut", last)
	}
	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	waitStored(t, sink, res.RunID, last)
	cancel()
	<-done
	// The window was told: reachable, then not (in words), then again.
	var told []run.HostState
	for len(reach) > 0 {
		told = append(told, <-reach)
	}
	if len(told) != 3 || !told[0].Reachable || told[1].Reachable || !told[2].Reachable ||
		!strings.Contains(told[1].Error, "h1") || !strings.Contains(told[1].Error, "runs go on") {
		t.Errorf("reachability told: %+v", told)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	exactlyOnce(t, sink.seen[res.RunID], last)
	t.Logf("run of %d events: %d before the cut and while it lasted, the rest on reconnect", last, before)
}

// The local side killed with SIGKILL mid-run and started again resumes
// from what it had stored: 1…last exactly once.
func TestRestartAfterKill9(t *testing.T) {
	rc := startRemoteCore(t)
	link := newRelay(t, "h1", rc.socket)
	file := filepath.Join(t.TempDir(), "kept.jsonl")
	first := startChild(t, link.Socket(), file)
	res := rc.startRun(t, "/scenario trickle")
	first.until(t, 5)
	first.kill9(t)
	// The link drops with it, and the run ends on the host meanwhile.
	link.Cut()
	last := rc.finish(t, res.RunID)
	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	second := startChild(t, link.Socket(), file)
	second.until(t, last)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]int{}
	for _, ev := range decodeEvents(b) {
		if ev.RunID == res.RunID {
			seen[ev.Seq]++
		}
	}
	exactlyOnce(t, seen, last)
}

// waitStored waits until sink holds runID's seq (in order of storing).
func waitStored(t testing.TB, sink *memSink, runID string, seq int64) {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case ev := <-sink.stored:
			if ev.RunID == runID && ev.Seq >= seq {
				return
			}
		case <-timeout:
			t.Fatalf("the follower did not store seq %d of %s", seq, runID)
		}
	}
}

// The local core's own sink (cursors in the journal), kill -9 mid-run:
// the next process resumes at the journal's cursor, reaches the run's
// last seq and tells its end — which happened while nobody followed —
// exactly once.
func TestJournalCursorsAfterKill9(t *testing.T) {
	rc := startRemoteCore(t)
	link := newRelay(t, "h1", rc.socket)
	db := filepath.Join(t.TempDir(), "local.db")
	first := startChild(t, link.Socket(), db, childJournalEnv+"=1")
	res := rc.startRun(t, "/scenario trickle")
	first.until(t, 5)
	first.kill9(t)
	last := rc.finish(t, res.RunID)
	second := startChild(t, link.Socket(), db, childJournalEnv+"=1")
	second.until(t, last)
	select {
	case id := <-second.ended:
		if id != res.RunID {
			t.Fatalf("told the end of %s", id)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the run's end was not told after the restart")
	}
	second.cmd.Process.Signal(os.Interrupt)
	for range second.stored { // closed once all its output was read
	}
	second.cmd.Wait()
	for len(second.ended) > 0 {
		t.Fatalf("the end was told again: %s", <-second.ended)
	}
	if len(first.ended) > 0 {
		t.Fatal("the killed process told an end it did not see")
	}
}
