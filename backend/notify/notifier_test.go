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
}

func (f *fakeControls) Approve(ctx context.Context, runID, id, choice string) (run.ControlResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.by = append(f.by, run.AnsweredBy(ctx))
	f.args = append(f.args, [3]string{runID, id, choice})
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
	ctl := &fakeControls{res: run.ControlResult{Accepted: true, Status: run.ControlAccepted}}
	n, fs, bus := start(t, ctl, nil)
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("a1")))
	expect(t, fs, "send prompt:r")
	n.Invoke(PromptKey("r"), ChoiceAction("allow_once"))
	bus.Publish(st("r", run.StatusRunning, nil)) // answered: nothing left to withdraw
	bus.Publish(st("r", run.StatusCompleted, nil))
	expect(t, fs, "send ended:1")
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	if len(ctl.args) != 1 || ctl.args[0] != [3]string{"r", "a1", "allow_once"} || ctl.by[0] != run.AnsweredByNotification {
		t.Fatalf("approve calls %v by %v", ctl.args, ctl.by)
	}
}

func TestNotifierAlreadyAnsweredSaysSo(t *testing.T) {
	ctl := &fakeControls{res: run.ControlResult{Status: run.ControlNotActive, Message: "the approval was already answered"}}
	n, fs, bus := start(t, ctl, nil)
	bus.Publish(st("r", run.StatusAwaitingApproval, appr("a1")))
	expect(t, fs, "send prompt:r")
	n.Invoke(PromptKey("r"), ChoiceAction("reject_once"))
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
	expect(t, fs, "send prompt:r")
	n.Invoke(PromptKey("r"), ActionDefault)
	if s := <-opened; s != "s-r" {
		t.Fatalf("opened %q", s)
	}
	n.SetFocus(Focus{SessionID: "s-r", Focused: true})
	expect(t, fs, "withdraw prompt:r")
	if n.Focus().SessionID != "s-r" {
		t.Fatal("focus not kept")
	}
	n.Invoke("nope", ActionOpen) // unknown: ignored, no crash
	bus.Publish(st("q", run.StatusCompleted, nil))
	expect(t, fs, "send ended:1")
}

// An approval that says nothing is never allowed from a notification: it
// offers only the refusal and Open, and an allow it did not offer (a forged
// or stale action) opens the session instead of answering.
func TestNotifierUnexplainedIsNotAllowedFromANotification(t *testing.T) {
	ctl := &fakeControls{res: run.ControlResult{Accepted: true, Status: run.ControlAccepted}}
	opened := make(chan string, 4)
	n, fs, bus := start(t, ctl, func(s string) { opened <- s })
	p := appr("a1")
	p.Title, p.Command, p.Unexplained = "The agent did not say what it wants to do", "", true
	p.Options = []run.ApprovalOption{{ID: "allow_once", Label: "Allow once", Kind: "allow_once"}, {ID: "reject_once", Label: "Reject", Kind: "reject_once"}}
	bus.Publish(st("r", run.StatusAwaitingApproval, p))
	expect(t, fs, "send prompt:r")
	fs.mu.Lock()
	note := fs.sent["prompt:r"]
	fs.mu.Unlock()
	if fmt.Sprint(note.Actions) != fmt.Sprint([]Action{{ChoiceAction("reject_once"), "Reject"}, {ActionOpen, "Open"}}) || !strings.Contains(note.Body, "did not say") {
		t.Fatalf("note %+v", note)
	}
	n.Invoke(PromptKey("r"), ChoiceAction("allow_once"))
	if s := <-opened; s != "s-r" {
		t.Fatalf("opened %q", s)
	}
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	if len(ctl.args) != 0 {
		t.Fatalf("approved from a notification: %v", ctl.args)
	}
}
