package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/watchfake"
)

type fakeSender struct {
	mu   sync.Mutex
	log  []string
	sent map[string]Note
	ch   chan string
}

func (f *fakeSender) Send(n Note) error {
	f.mu.Lock()
	f.sent[n.Key] = n
	f.mu.Unlock()
	f.ch <- "send " + n.Key
	return nil
}

func (f *fakeSender) Withdraw(key string) error { f.ch <- "withdraw " + key; return nil }

type fakeControls struct {
	res  run.ControlResult
	mu   sync.Mutex
	by   []string
	args [][3]string
	// called, when set, gets each Approve's arguments.
	called chan [3]string
}

func (f *fakeControls) Approve(ctx context.Context, runID, id, choice string) (run.ControlResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.by = append(f.by, run.AnsweredBy(ctx))
	f.args = append(f.args, [3]string{runID, id, choice})
	if f.called != nil {
		f.called <- [3]string{runID, id, choice}
	}
	return f.res, nil
}

func (f *fakeControls) Settings(context.Context) (map[string]json.RawMessage, error) {
	return map[string]json.RawMessage{SettingFinished: json.RawMessage("true")}, nil
}

func start(t *testing.T, ctl *fakeControls, open func(string)) (*Notifier, *fakeSender, *watchfake.Bus) {
	t.Helper()
	fs := &fakeSender{sent: map[string]Note{}, ch: make(chan string, 64)}
	bus := watchfake.New()
	n := New(Config{Sender: fs, Controls: ctl, Open: open})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); n.Run(ctx, bus) }()
	t.Cleanup(func() { cancel(); <-done })
	if err := bus.WaitWatchers(ctx, 1); err != nil {
		t.Fatal(err)
	}
	return n, fs, bus
}

func expect(t *testing.T, fs *fakeSender, want string) {
	t.Helper()
	select {
	case got := <-fs.ch:
		if got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no %q", want)
	}
}

func TestNotifierApproveFromNotification(t *testing.T) {
	ctl := &fakeControls{res: run.ControlResult{Accepted: true, Status: run.ControlAccepted}, called: make(chan [3]string, 1)}
	n, fs, bus := start(t, ctl, nil)
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("a1")))
	expect(t, fs, "send prompt:r:a1")
	n.Invoke(PromptKey("r", "a1"), ChoiceAction("a1", "allow_once"))
	<-ctl.called                                 // the answer goes out; then the bus says so
	bus.Publish(st("r", run.StatusRunning, nil)) // answered: nothing left to withdraw
	bus.Publish(st("r", run.StatusCompleted, nil))
	expect(t, fs, "send ended:1")
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	if len(ctl.args) != 1 || ctl.args[0] != [3]string{"r", "a1", "allow_once"} || ctl.by[0] != run.AnsweredByNotification {
		t.Fatalf("approve calls %v by %v", ctl.args, ctl.by)
	}
}

// TestNotifierButtonAnswersOnlyItsRequest: a second request of the same
// run gets its own notification, and a click that names the first (its
// notification still up on a slow server, or a forged key) answers
// nothing — issue 21 item 6: "Read README.md"'s Allow approved
// "rm -rf ~/important".
func TestNotifierButtonAnswersOnlyItsRequest(t *testing.T) {
	ctl := &fakeControls{res: run.ControlResult{Accepted: true, Status: run.ControlAccepted}, called: make(chan [3]string, 4)}
	n, fs, bus := start(t, ctl, nil)
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("read")))
	expect(t, fs, "send prompt:r:read")
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("rm")))
	expect(t, fs, "withdraw prompt:r:read")
	expect(t, fs, "send prompt:r:rm")
	n.Invoke(PromptKey("r", "read"), ChoiceAction("read", "allow_once")) // the old notification: gone
	n.Invoke(PromptKey("r", "rm"), ChoiceAction("read", "allow_once"))   // the new one, naming the old request
	n.Invoke(PromptKey("r", "rm"), "choose:allow_once")                  // an old-style key naming none
	n.Invoke(PromptKey("r", "rm"), ChoiceAction("rm", "reject_once"))    // the right one
	select {
	case got := <-ctl.called:
		if got != [3]string{"r", "rm", "reject_once"} {
			t.Fatalf("approved %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the right click answered nothing")
	}
	// Answers run on their own goroutines: a wrong one could land later.
	select {
	case got := <-ctl.called:
		t.Fatalf("also approved %v", got)
	case <-time.After(300 * time.Millisecond):
	}
}

func TestNotifierAlreadyAnsweredSaysSo(t *testing.T) {
	ctl := &fakeControls{res: run.ControlResult{Status: run.ControlNotActive, Message: "the approval was already answered"}}
	n, fs, bus := start(t, ctl, nil)
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("a1")))
	expect(t, fs, "send prompt:r:a1")
	n.Invoke(PromptKey("r", "a1"), ChoiceAction("a1", "reject_once"))
	expect(t, fs, "send answered:r")
	fs.mu.Lock()
	body := fs.sent["answered:r"].Body
	fs.mu.Unlock()
	if body != "Your choice was not used: the approval was already answered." {
		t.Fatalf("follow-up body %q", body)
	}
}

func TestNotifierOpenAndFocus(t *testing.T) {
	opened := make(chan string, 4)
	n, fs, bus := start(t, &fakeControls{}, func(s string) { opened <- s })
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("a1")))
	expect(t, fs, "send prompt:r:a1")
	n.Invoke(PromptKey("r", "a1"), ActionDefault)
	if s := <-opened; s != "s-r" {
		t.Fatalf("opened %q", s)
	}
	n.SetFocus(Focus{SessionID: "s-r", Focused: true})
	expect(t, fs, "withdraw prompt:r:a1")
	if n.Focus().SessionID != "s-r" {
		t.Fatal("focus not kept")
	}
	n.Invoke("nope", ActionOpen) // unknown: ignored, no crash
	bus.Publish(st("q", run.StatusCompleted, nil))
	expect(t, fs, "send ended:1")
}

// An approval that says nothing is never allowed from a notification: it
// offers only the refusal (a click on it opens the session), and an allow it did not offer (a forged
// or stale action) opens the session instead of answering.
func TestNotifierUnexplainedIsNotAllowedFromANotification(t *testing.T) {
	ctl := &fakeControls{res: run.ControlResult{Accepted: true, Status: run.ControlAccepted}}
	opened := make(chan string, 4)
	n, fs, bus := start(t, ctl, func(s string) { opened <- s })
	p := appr("a1")
	p.Title, p.Command, p.Unexplained = "The agent did not say what it wants to do", "", true
	p.Options = []run.ApprovalOption{{ID: "allow_once", Label: "Allow once", Kind: "allow_once"}, {ID: "reject_once", Label: "Reject", Kind: "reject_once"}}
	bus.Publish(st("r", run.StatusAwaitingApproval, p))
	expect(t, fs, "send prompt:r:a1")
	fs.mu.Lock()
	note := fs.sent["prompt:r:a1"]
	fs.mu.Unlock()
	if fmt.Sprint(note.Actions) != fmt.Sprint([]Action{{ChoiceAction("a1", "reject_once"), "Reject"}}) || !strings.Contains(note.Body, "did not say") {
		t.Fatalf("note %+v", note)
	}
	n.Invoke(PromptKey("r", "a1"), ChoiceAction("a1", "allow_once"))
	if s := <-opened; s != "s-r" {
		t.Fatalf("opened %q", s)
	}
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	if len(ctl.args) != 0 {
		t.Fatalf("approved from a notification: %v", ctl.args)
	}
}
