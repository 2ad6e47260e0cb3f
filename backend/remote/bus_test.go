//go:build unix

package remote

import (
	"context"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

// One bus for every host: a remote run shows on the local bus tagged with
// its host; it ends while the link is down, and once the link is back the
// local bus says so exactly once — not again on the next reconnect
// (docs/ARCHITECTURE.md §Remote cores).
func TestRemoteRunsOnTheLocalBusOnce(t *testing.T) {
	rc := startRemoteCore(t)
	link := newRelay(t, "h1", rc.socket)
	mem := servicetest.NewMem()
	local := service.New(mem, mem, mem, service.Options{Log: quiet})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bus, err := local.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	<-bus // the local snapshot
	snapshots := make(chan struct{}, 16)
	f := New(link, newMemSink(), Options{Log: quiet, MinBackoff: 20 * time.Millisecond, Message: func(host string, m run.WatchMessage) {
		local.PublishRemote(host, m)
		if m.Type == run.WatchSnapshotType {
			snapshots <- struct{}{}
		}
	}})
	done := make(chan struct{})
	go func() { f.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	waitSignal(t, snapshots, "first snapshot")

	res := rc.startRun(t, "/scenario trickle")
	// changes reads the local bus's news of the run up to a marker.
	next := func(what string) run.WatchMessage {
		t.Helper()
		for {
			select {
			case m := <-bus:
				if m.Type == run.WatchRunChanged && m.Run.RunID == res.RunID ||
					m.Type == run.WatchSessionChanged && m.Session.SessionID == "marker" {
					return m
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("no %s on the local bus", what)
			}
		}
	}
	m := next("the remote run")
	if m.Type != run.WatchRunChanged || m.Run.Host != "h1" || m.Run.Status.Terminal() {
		t.Fatalf("first news of the remote run: %s %+v", m.Type, m.Run)
	}
	for m.Run.Status != run.StatusRunning {
		m = next("the run running")
	}
	link.Cut()
	last := rc.finish(t, res.RunID)
	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	m = next("the run's end after the link came back")
	if m.Type != run.WatchRunChanged || m.Run.Status != run.StatusCompleted || m.Run.Host != "h1" || m.Run.LastSeq != last {
		t.Fatalf("after reconnect: %s %+v, want completed of h1 at seq %d", m.Type, m.Run, last)
	}
	waitSignal(t, snapshots, "snapshot after the first reconnect")
	// Drop and restore the link again: nothing more about that run.
	link.Cut()
	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	waitSignal(t, snapshots, "snapshot after the second reconnect")
	local.PublishRemote("h1", run.WatchMessage{Type: run.WatchSessionChanged, Session: &run.SessionChange{SessionID: "marker"}})
	if m := next("the marker"); m.Type != run.WatchSessionChanged {
		t.Fatalf("the run was announced again after a reconnect: %+v", m.Run)
	}
}

func waitSignal(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(60 * time.Second):
		t.Fatalf("no %s", what)
	}
}
