//go:build linux

package cli

// Schedules and notifications together, end to end (docs/ARCHITECTURE.md
// §Schedules, §Notifications): the real serve — journal, supervisor,
// scheduler, shims, the demo agent, and the notifier serve starts beside
// the supervisor on the desktop's session bus — with no window. The session
// bus is a private dbus-daemon whose address the test puts in
// DBUS_SESSION_BUS_ADDRESS, the way a desktop session does, and the
// notification server on it is the test double that records Notify calls.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/schedule"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/dbustest"
	"github.com/hermesdesk/hermesdesk/testkit/notifyserver"
)

// A one-off fires in serve while no window exists: its run completes and
// is in the journal, the schedule's history says it fired with the run's
// real status, and the desktop's notification server is told it finished,
// naming the firing's session.
func TestScheduleFiresAndNotifiesWithoutWindow(t *testing.T) {
	dataDir := newDataDir(t)
	addr := dbustest.Start(t)
	notes, err := notifyserver.New(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { notes.Close() })
	// serve reads the session bus from the environment, as under a desktop.
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	srv := startServe(t, dataDir)
	defer srv.stop()
	c := localClient(dataDir)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// Follow the watch bus before anything is due, so the run's end is an
	// event the test waits for rather than a state it polls.
	bus, err := c.Watch(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	// The Schedules view follows the bus: the firing says schedules.changed.
	watch := make(chan run.WatchMessage, 256)
	schedulesChanged := make(chan struct{}, 64)
	go func() {
		defer close(watch)
		for m := range bus {
			if m.Type == run.WatchSchedulesChanged {
				schedulesChanged <- struct{}{}
			}
			watch <- m
		}
	}()
	ws := filepath.Join(dataDir, "ws")
	os.MkdirAll(ws, 0o700)
	var p run.Project
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: ws}, &p); err != nil {
		t.Fatal(err)
	}
	// Due two seconds from now: far enough ahead that creating it is not
	// "in the past" on a loaded machine, near enough to fire at once.
	at := time.Now().Add(2 * time.Second)
	var s service.ScheduleView
	if err := c.Call(ctx, "POST", "/api/schedules", service.ScheduleRequest{Name: "Morning report",
		Prompt: "/scenario demo\nhello", Agent: "demo", ProjectID: p.ID, At: &at, Timezone: "UTC"}, &s); err != nil {
		t.Fatal(err)
	}
	if s.NextDue == nil || !s.NextDue.Equal(at) {
		t.Fatalf("next due %v, want %v", s.NextDue, at)
	}
	select {
	case <-schedulesChanged: // created
	case <-ctx.Done():
		t.Fatal("no schedules.changed on the watch bus after creating a schedule")
	}

	ended := waitRunEnded(t, watch)
	if ended.Status != run.StatusCompleted {
		t.Fatalf("the firing's run ended %s: %s", ended.Status, ended.Error)
	}

	select {
	case <-schedulesChanged: // fired: its next and last run moved
	case <-ctx.Done():
		t.Fatal("no schedules.changed on the watch bus after the firing")
	}

	// The history names that run, settled with its real status.
	fs := waitHistory(t, c, s.ID, settledRun)
	if len(fs) != 1 || fs[0].Outcome != schedule.OutcomeFired || fs[0].Manual || fs[0].CatchUp ||
		fs[0].RunID != ended.RunID || fs[0].SessionID != ended.SessionID || fs[0].Status != string(run.StatusCompleted) {
		b, _ := json.MarshalIndent(fs, "", " ")
		t.Fatalf("history, want one on-time firing of run %s completed:\n%s", ended.RunID, b)
	}

	// The journal has the run, ended by exactly one done that says completed.
	var r run.Run
	if err := c.Call(ctx, "GET", "/api/runs/"+ended.RunID, nil, &r); err != nil || r.Status != run.StatusCompleted || !r.Terminal {
		t.Fatalf("journal run %+v %v", r, err)
	}
	var page service.EventPage
	if err := c.Call(ctx, "GET", "/api/runs/"+ended.RunID+"/events?limit=5000", nil, &page); err != nil {
		t.Fatal(err)
	}
	var dones []run.Done
	for _, ev := range page.Events {
		if ev.Type == run.EventDone {
			var d run.Done
			if err := json.Unmarshal(ev.Payload, &d); err != nil {
				t.Fatalf("done payload %s: %v", ev.Payload, err)
			}
			dones = append(dones, d)
		}
	}
	if len(dones) != 1 || dones[0].Status != run.StatusCompleted {
		t.Fatalf("done events %+v", dones)
	}
	var ses run.Session
	if err := c.Call(ctx, "GET", "/api/sessions/"+ended.SessionID, nil, &ses); err != nil || !strings.HasPrefix(ses.Title, "Morning report · ") {
		t.Fatalf("session %+v %v", ses, err)
	}

	// The notification server was told, naming the session.
	want := "Finished — " + ses.Title
	calls, err := notes.Wait(30*time.Second, func(cs []notifyserver.Notification) bool {
		for _, n := range cs {
			if n.Summary == want {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("no %q notification: %v", want, err)
	}
	for _, n := range calls {
		if n.Summary != want || n.AppName != "Hermes Desk" || n.Body != "Demo agent (no AI) is done" || n.Label("default") != "Open" || len(n.Actions) != 1 {
			t.Errorf("notification %+v, want only %q from Hermes Desk, opened by a click (one Open, not two)", n, want)
		}
	}
}

// waitRunEnded reads the watch bus until a run ends and returns its last
// state. The test's context bounds the wait.
func waitRunEnded(t *testing.T, watch <-chan run.WatchMessage) run.RunState {
	t.Helper()
	for m := range watch {
		switch {
		case m.Type == run.WatchGoodbye:
			t.Fatalf("the watch bus said goodbye (%s) before the run ended", m.Reason)
		case m.Type == run.WatchRunChanged && m.Run != nil && m.Run.Status.Terminal():
			return *m.Run
		}
	}
	t.Fatal("no run ended before the test's deadline")
	return run.RunState{}
}
