//go:build linux

package notify

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/dbustest"
	"github.com/hermesdesk/hermesdesk/testkit/notifyserver"
	"github.com/hermesdesk/hermesdesk/testkit/watchfake"
)

// busEnv is a private session bus with the test notification server and
// no StatusNotifierWatcher (no tray): notifications must not need one.
func busEnv(t *testing.T, ctl Controls, open func(string)) (*notifyserver.Server, *watchfake.Bus) {
	t.Helper()
	srv, bus, _ := busEnvAt(t, dbustest.Start(t), ctl, open)
	return srv, bus
}

func busEnvAt(t *testing.T, addr string, ctl Controls, open func(string)) (*notifyserver.Server, *watchfake.Bus, *DBusSender) {
	t.Helper()
	srv, err := notifyserver.New(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	var n *Notifier
	sender, err := NewDBusSender(addr, func(key, action string) { n.Invoke(key, action) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sender.Close() })
	var has bool
	if err := sender.conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.kde.StatusNotifierWatcher").Store(&has); err != nil || has {
		t.Fatalf("the test bus should have no tray host: %v %v", has, err)
	}
	bus := watchfake.New()
	n = New(Config{Sender: sender, Controls: ctl, Open: open})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); n.Run(ctx, bus) }()
	t.Cleanup(func() { cancel(); <-done })
	if err := bus.WaitWatchers(ctx, 1); err != nil {
		t.Fatal(err)
	}
	return srv, bus, sender
}

func TestDBusApprovalNotificationAnswersFromItsButton(t *testing.T) {
	ctl := &fakeControls{res: run.ControlResult{Accepted: true, Status: run.ControlAccepted}}
	srv, bus := busEnv(t, ctl, nil)
	r := st("r", run.StatusAwaitingApproval, appr("a1"))
	r.SessionTitle = "<b>bold</b> & co"
	bus.Publish(r)
	calls, err := srv.Wait(10*time.Second, func(c []notifyserver.Notification) bool { return len(c) == 1 })
	if err != nil {
		t.Fatal(err)
	}
	n := calls[0]
	if n.Label(ChoiceAction("a1", "allow_once")) != "Allow once" || n.Label(ChoiceAction("a1", "reject_once")) != "Reject" ||
		n.Label(ActionOpen) != "" || n.Label(ActionDefault) != "Open" || len(n.Actions) != 3 {
		t.Fatalf("actions %v", n.Actions)
	}
	if n.Body != "Run ls\nls -la" || n.AppName != "Hermes Desk" {
		t.Fatalf("notification %+v", n)
	}
	if err := srv.Invoke(n.ID, ChoiceAction("a1", "allow_once")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctl.mu.Lock()
		got := fmt.Sprint(ctl.args, ctl.by)
		ctl.mu.Unlock()
		if got == "[[r a1 allow_once]] [notification]" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("approve calls %s", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestDBusWithdrawnWhenAnsweredElsewhere(t *testing.T) {
	srv, bus := busEnv(t, &fakeControls{}, nil)
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("a1")))
	if _, err := srv.Wait(10*time.Second, func(c []notifyserver.Notification) bool { return len(c) == 1 && c[0].Open }); err != nil {
		t.Fatal(err)
	}
	bus.Publish(st("r", run.StatusRunning, nil)) // answered in the window
	if _, err := srv.Wait(10*time.Second, func(c []notifyserver.Notification) bool {
		return !c[0].Open && c[0].Closed == notifyserver.ReasonClosed
	}); err != nil {
		t.Fatal(err)
	}
}

func TestDBusBodyClickOpensSession(t *testing.T) {
	opened := make(chan string, 1)
	srv, bus := busEnv(t, &fakeControls{}, func(s string) { opened <- s })
	bus.Publish(st("r", run.StatusAwaitingClarify, &run.PendingPrompt{Kind: run.PendingClarify, ID: "c1", Title: "Which?"}))
	calls, err := srv.Wait(10*time.Second, func(c []notifyserver.Notification) bool { return len(c) == 1 })
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Invoke(calls[0].ID, ActionDefault); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-opened:
		if s != "s-r" {
			t.Fatalf("opened %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("body click did not open the session")
	}
}

// TestDBusTenRunsFinishingTogether: at most two notifications.
func TestDBusTenRunsFinishingTogether(t *testing.T) {
	srv, bus := busEnv(t, &fakeControls{}, nil)
	for i := range 10 {
		bus.Publish(st(fmt.Sprint(i), run.StatusRunning, nil))
	}
	for i := range 10 {
		bus.Publish(st(fmt.Sprint(i), run.StatusCompleted, nil))
	}
	calls, err := srv.Wait(10*time.Second, func(c []notifyserver.Notification) bool {
		n := 0
		for _, x := range c {
			n += countRuns(x.Summary)
		}
		return n == 10
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) > 2 {
		t.Fatalf("%d notifications for ten runs: %+v", len(calls), calls)
	}
}

func countRuns(summary string) int {
	var n int
	if _, err := fmt.Sscanf(summary, "%d runs finished", &n); err == nil {
		return n
	}
	if strings.HasPrefix(summary, "Finished") {
		return 1
	}
	return 0
}

// TestDBusRogueSignalsIgnored: any client on the session bus can emit
// ActionInvoked and NotificationClosed, broadcast or straight to the
// core's connection. Malformed ones must not panic the process (issue 21
// item 5: esiqveland/notify's unchecked assertions did), and well-formed
// ones from anyone but the notification server must not answer an
// approval. The server's own click still works afterwards.
func TestDBusRogueSignalsIgnored(t *testing.T) {
	ctl := &fakeControls{res: run.ControlResult{Accepted: true, Status: run.ControlAccepted}, called: make(chan [3]string, 4)}
	addr := dbustest.Start(t)
	srv, bus, sender := busEnvAt(t, addr, ctl, nil)
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("a1")))
	calls, err := srv.Wait(10*time.Second, func(c []notifyserver.Notification) bool { return len(c) == 1 })
	if err != nil {
		t.Fatal(err)
	}
	id := calls[0].ID
	allow := calls[0].Actions[1][0] // the first option's key, whatever its form
	rogue, err := dbus.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer rogue.Close()
	if err := rogue.Auth(nil); err != nil {
		t.Fatal(err)
	}
	if err := rogue.Hello(); err != nil {
		t.Fatal(err)
	}
	core := sender.conn.Names()[0]
	for _, body := range [][]any{
		{"not-an-id", int32(7)}, {}, {id}, {id, int32(1)}, {uint64(id), allow}, // malformed
		{id, allow}, // well-formed, from the wrong sender
	} {
		for _, member := range []string{sigAction, sigClosed} {
			must(t, rogue.Emit(fdoPath, member, body...))
			msg := &dbus.Message{Type: dbus.TypeSignal, Headers: map[dbus.HeaderField]dbus.Variant{
				dbus.FieldPath: dbus.MakeVariant(fdoPath), dbus.FieldInterface: dbus.MakeVariant(fdoName),
				dbus.FieldMember:      dbus.MakeVariant(member[len(fdoName)+1:]),
				dbus.FieldDestination: dbus.MakeVariant(core)}, Body: body}
			if len(body) > 0 {
				msg.Headers[dbus.FieldSignature] = dbus.MakeVariant(dbus.SignatureOf(body...))
			}
			must(t, rogue.Send(msg, nil).Err)
		}
	}
	// A round trip: the bus has routed everything the rogue sent before it.
	must(t, rogue.BusObject().Call("org.freedesktop.DBus.GetId", 0).Err)
	reject := calls[0].Actions[2][0]
	must(t, srv.Invoke(id, reject))
	select {
	case got := <-ctl.called:
		if got != [3]string{"r", "a1", "reject_once"} {
			t.Fatalf("approved %v: a rogue signal answered", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server's own click did not answer")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestDBusSecondRequestIsANewNotification: a second approval request of
// the same run never replaces the first notification in place (a click in
// flight on the first would land on the second); the first is closed and
// the second is a new one (issue 21 item 6).
func TestDBusSecondRequestIsANewNotification(t *testing.T) {
	srv, bus := busEnv(t, &fakeControls{}, nil)
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("read")))
	if _, err := srv.Wait(10*time.Second, func(c []notifyserver.Notification) bool { return len(c) == 1 }); err != nil {
		t.Fatal(err)
	}
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("rm")))
	calls, err := srv.Wait(10*time.Second, func(c []notifyserver.Notification) bool { return len(c) == 2 && !c[0].Open })
	if err != nil {
		t.Fatal(err)
	}
	if calls[1].Replaces != 0 || calls[1].ID == calls[0].ID || calls[0].Closed != notifyserver.ReasonClosed {
		t.Fatalf("the second request replaced the first in place: %+v", calls)
	}
	if calls[1].Label(ChoiceAction("rm", "allow_once")) != "Allow once" {
		t.Fatalf("second notification's buttons %v", calls[1].Actions)
	}
}
