package supervisor_test

import (
	"context"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
)

// noAgents is the service's agent list in this test: the demo agent only.
type noAgents struct{}

func (noAgents) List(context.Context) ([]service.AgentInfo, error) { return nil, nil }
func (noAgents) Known(name string) bool                            { return name == "demo" }
func (noAgents) BuiltIn(name string) bool                          { return name == "demo" }
func (noAgents) DisplayName(_ context.Context, name string) string { return name }
func (noAgents) DisplayNames(context.Context) (map[string]string, error) {
	return map[string]string{"demo": "demo"}, nil
}

// Phantom runs (issue 23.1): a follow-up queued behind a working run and
// then edited (the window cancels it and puts its text back in the
// composer) or cancelled ends in the journal with one done{cancelled}; the
// watch bus, and so the tray and the sidebar, must learn that it ended.
// It did not: the supervisor published the done it wrote only to a run's
// hub, and a queued run nobody watches has none, so the bus kept each such
// run as queued until a restart ("3 runs running", Quit asking about them).
func TestCancelledQueuedRunsLeaveTheWatchBus(t *testing.T) {
	e := newEnv(t)
	svc := service.New(e.store, e.sup, noAgents{}, service.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	msgs, err := svc.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tray := traystate.New()

	first, err := svc.StartRun(ctx, run.StartRequest{SessionID: e.session.ID, Message: "/scenario slow"})
	if err != nil {
		t.Fatal(err)
	}
	e.waitStatus(first.RunID, run.StatusRunning)
	var queued []string
	for range 3 { // an edit and two cancels: each is a cancel of a queued run
		res, err := svc.Queue(ctx, first.RunID, service.QueueRequest{Message: "and then?"})
		if err != nil || !res.Accepted {
			t.Fatalf("queue: %+v %v", res, err)
		}
		queued = append(queued, res.RunID)
		if c, err := svc.Cancel(ctx, res.RunID); err != nil || !c.Accepted {
			t.Fatalf("cancel queued %s: %+v %v", res.RunID, c, err)
		}
		if r := e.getRun(res.RunID); r.Status != run.StatusCancelled {
			t.Fatalf("journal: queued run is %s, want cancelled", r.Status)
		}
	}

	// The bus announces each end; without it the deadline below fails.
	ended := map[string]bool{}
	deadline := time.After(20 * time.Second)
	for len(ended) < len(queued) {
		select {
		case m, ok := <-msgs:
			if !ok {
				t.Fatal("watch closed")
			}
			tray.Apply(m)
			if m.Type == run.WatchRunChanged && m.Run != nil && m.Run.Status.Terminal() {
				ended[m.Run.RunID] = true
			}
		case <-deadline:
			t.Fatalf("the watch bus never said the cancelled queued runs ended (ended: %v of %v); tray shows %d runs",
				ended, queued, len(tray.Runs()))
		}
	}
	if got := tray.Runs(); len(got) != 1 || got[0].RunID != first.RunID {
		t.Fatalf("tray runs = %+v, want only the working run %s", got, first.RunID)
	}
	// A fresh watcher (the sidebar after a reconnect, the tray after a
	// restart of its follow) gets the same answer from the snapshot.
	fresh, err := svc.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	snap := <-fresh
	if snap.Snapshot == nil || len(snap.Snapshot.Runs) != 1 || snap.Snapshot.Runs[0].RunID != first.RunID {
		t.Fatalf("snapshot = %+v, want only the working run", snap.Snapshot)
	}
	if _, err := e.sup.Cancel(ctx, first.RunID); err != nil {
		t.Fatal(err)
	}
	e.waitTerminal(first.RunID)
}
