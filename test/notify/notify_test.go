// Package notify_test runs notifications and quitting with active runs
// against real processes: the data dir's stack (journal, supervisor,
// shims, the demo agent) and a test notification server on a private
// D-Bus session bus with no tray host.
package notify_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/notify"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
	"github.com/hermesdesk/hermesdesk/testkit/dbustest"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
	"github.com/hermesdesk/hermesdesk/testkit/notifyserver"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
	"github.com/hermesdesk/hermesdesk/testkit/shimbuild"
)

var testBin string

func TestMain(m *testing.M) { shimbuild.Main(m, &testBin) }

type env struct {
	t       *testing.T
	dataDir string
	st      *stack.Stack
	project run.Project
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root, err := os.MkdirTemp("", "hd-nt-") // short: sockets live under it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	e := &env{t: t, dataDir: filepath.Join(root, "data")}
	ws := filepath.Join(root, "work")
	os.MkdirAll(ws, 0o700)
	t.Setenv("HERMESDESK_HOME", e.dataDir)
	t.Setenv("XDG_RUNTIME_DIR", root)
	t.Setenv(fakeagent.StateEnv, filepath.Join(root, "agent-state"))
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	e.open()
	e.project, err = e.st.Service.CreateProject(context.Background(), service.CreateProjectRequest{Name: "p", Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// open (re)opens the stack: a fresh start of whoever supervises.
func (e *env) open() {
	e.t.Helper()
	st, err := stack.Open(context.Background(), stack.Options{DataDir: e.dataDir, Executable: testBin, WarmIdle: -1})
	if err != nil {
		e.t.Fatal(err)
	}
	e.st = st
	e.t.Cleanup(func() { st.Close() })
}

// start begins a run of the demo agent's scenario in a new session.
func (e *env) start(scenario, title string) (string, string) {
	e.t.Helper()
	ctx := context.Background()
	s, err := e.st.Service.CreateSession(ctx, service.CreateSessionRequest{ProjectID: e.project.ID, Agent: "demo", Title: title})
	if err != nil {
		e.t.Fatal(err)
	}
	r, err := e.st.Service.StartRun(ctx, run.StartRequest{SessionID: s.ID, Message: "/scenario " + scenario + "\ngo", ClientRequestID: service.NewRequestID()})
	if err != nil {
		e.t.Fatal(err)
	}
	return r.RunID, s.ID
}

func (e *env) events(runID string) []run.Event {
	e.t.Helper()
	page, err := e.st.Service.Events(context.Background(), runID, 0, 5000)
	if err != nil {
		e.t.Fatal(err)
	}
	return page.Events
}

// waitRun waits until cond holds of the run's record, checked as each of
// the run's events arrives (Service.Follow; the record is written in the
// event's commit), never by polling: a condition met by the last event
// before a long wait (an approval pending) is seen at once.
func (e *env) waitRun(runID string, what string, cond func(run.Run) bool) run.Run {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var r run.Run
	var err error
	met := func() bool {
		r, err = e.st.Service.Run(ctx, runID)
		return err == nil && cond(r)
	}
	if met() {
		return r
	}
	errMet := errors.New("condition met")
	ferr := e.st.Service.Follow(ctx, runID, r.LastSeq, func(run.Event, bool) error {
		if met() {
			return errMet
		}
		return nil
	})
	if errors.Is(ferr, errMet) || met() { // Follow ends at the terminal event
		return r
	}
	e.t.Fatalf("run %s: %s never came (last %+v, %v; follow: %v)", runID, what, r, err, ferr)
	return r
}

// notifier starts the product's notifier over the stack's service and its watch bus on a
// private bus with the test notification server and no tray host.
func (e *env) notifier() *notifyserver.Server {
	e.t.Helper()
	addr := dbustest.Start(e.t)
	srv, err := notifyserver.New(addr)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { srv.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	stop := notify.StartWith(ctx, e.st.Service, e.st.Service, addr, nil,
		slog.New(slog.NewTextHandler(testWriter{e.t}, nil)))
	e.t.Cleanup(func() { cancel(); stop() })
	return srv
}

func approvalNote(srv *notifyserver.Server, t *testing.T) notifyserver.Notification {
	t.Helper()
	calls, err := srv.Wait(60*time.Second, func(c []notifyserver.Notification) bool {
		return len(c) > 0 && len(c[0].Actions) > 2
	})
	if err != nil {
		t.Fatal(err)
	}
	return calls[0]
}

// TestApproveFromNotification: a run awaiting approval raises a
// notification with the agent's own options; "Allow once" on it resumes the
// run, which completes; the journal has one approval.resolved, by the
// notification. The notifier follows the bus before the run starts, as in
// the app: the demo agent asks before the supervisor has subscribed to its
// shim, and the bus learns of the request from the journal (it used to
// hear nothing until the next commit, which never came).
func TestApproveFromNotification(t *testing.T) {
	e := newEnv(t)
	srv := e.notifier()
	runID, _ := e.start("approval", "Tidy the files")
	n := approvalNote(srv, t)
	approvalID, _, _ := notify.ChoiceOf(n.Actions[1][0])
	allow := notify.ChoiceAction(approvalID, "allow-once")
	if approvalID == "" || n.Label(allow) != "Allow once" || n.Label(notify.ChoiceAction(approvalID, "reject-once")) != "Reject" ||
		n.Label(notify.ActionDefault) != "Open" || n.Label(notify.ActionOpen) != "" {
		t.Fatalf("actions %v", n.Actions)
	}
	if err := srv.Invoke(n.ID, allow); err != nil {
		t.Fatal(err)
	}
	r := e.waitRun(runID, "completion", func(r run.Run) bool { return r.Terminal })
	if r.Status != run.StatusCompleted {
		t.Fatalf("run ended %s: %s", r.Status, r.Error)
	}
	var resolved []run.ApprovalResolved
	for _, ev := range e.events(runID) {
		if ev.Type == run.EventApprovalResolved {
			var p run.ApprovalResolved
			json.Unmarshal(ev.Payload, &p)
			resolved = append(resolved, p)
		}
	}
	if len(resolved) != 1 || resolved[0].By != run.AnsweredByNotification || resolved[0].Choice != "allow-once" {
		t.Fatalf("approval.resolved events %+v", resolved)
	}
}

// TestApprovedElsewhereWithdraws: answering in the window closes the
// notification; its button afterwards says it was already answered.
func TestApprovedElsewhereWithdraws(t *testing.T) {
	e := newEnv(t)
	runID, _ := e.start("approval", "Tidy")
	srv := e.notifier()
	n := approvalNote(srv, t)
	res, err := e.st.Service.Approve(context.Background(), runID, e.waitRun(runID, "pending", func(r run.Run) bool { return r.PendingApprovalID != "" }).PendingApprovalID, "allow-once")
	if err != nil || !res.Accepted {
		t.Fatalf("approve in the window: %+v %v", res, err)
	}
	if _, err := srv.Wait(30*time.Second, func(c []notifyserver.Notification) bool {
		return !c[0].Open && c[0].Closed == notifyserver.ReasonClosed
	}); err != nil {
		t.Fatal(err)
	}
	approvalID, _, _ := notify.ChoiceOf(n.Actions[1][0])
	if err := srv.Invoke(n.ID, notify.ChoiceAction(approvalID, "allow-once")); err == nil {
		t.Fatal("a withdrawn notification could still be clicked")
	}
}

// TestQuitKeepRunning: closing the supervisor with runs active leaves
// their shims running; the next start adopts them (still active, not
// interrupted) and they can be stopped from there.
func TestQuitKeepRunning(t *testing.T) {
	e := newEnv(t)
	a, _ := e.start("slow", "one")
	b, _ := e.start("slow", "two")
	for _, id := range []string{a, b} {
		e.waitRun(id, "running", func(r run.Run) bool { return r.Status == run.StatusRunning })
	}
	before := map[string]int64{}
	for _, id := range []string{a, b} {
		before[id] = e.waitRun(id, "seq", func(run.Run) bool { return true }).LastSeq
	}
	if err := e.st.Close(); err != nil {
		t.Fatal(err)
	}
	e.open()
	for _, id := range []string{a, b} {
		r := e.waitRun(id, "adoption", func(r run.Run) bool { return r.LastSeq > before[id] || r.Terminal })
		if r.Terminal {
			t.Fatalf("run %s ended %s across the restart: %s", id, r.Status, r.Error)
		}
	}
}

// TestQuitStopThem: "Stop N runs and quit" cancels each active run through
// the API (what the tray's choice calls); each ends with one done, status
// cancelled.
func TestQuitStopThem(t *testing.T) {
	e := newEnv(t)
	var ids []string
	for i := range 3 {
		id, _ := e.start("slow", fmt.Sprint("run ", i))
		ids = append(ids, id)
	}
	for _, id := range ids {
		e.waitRun(id, "running", func(r run.Run) bool { return r.Status == run.StatusRunning })
	}
	h := httpapi.New(e.st.Service, httpapi.Config{})
	for _, id := range ids {
		if status, body := h.DoContext(context.Background(), "POST", "/api/runs/"+id+"/cancel", ""); status >= 300 {
			t.Fatalf("cancel %s: %d %s", id, status, body)
		}
	}
	for _, id := range ids {
		r := e.waitRun(id, "cancelled", func(r run.Run) bool { return r.Terminal })
		// Every event of the run, read by following it from the start:
		// Follow ends at the terminal event, so the done event is in
		// whatever the record already said (a page read at once may come
		// before the core's reader sees the shim's last commit).
		var dones []run.Done
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		ferr := e.st.Service.Follow(ctx, id, 0, func(ev run.Event, _ bool) error {
			if ev.Type == run.EventDone {
				var d run.Done
				json.Unmarshal(ev.Payload, &d)
				dones = append(dones, d)
			}
			return nil
		})
		cancel()
		if ferr != nil {
			t.Fatalf("follow %s: %v", id, ferr)
		}
		if r.Status != run.StatusCancelled || len(dones) != 1 || dones[0].Status != run.StatusCancelled {
			t.Fatalf("run %s: %s, done events %+v", id, r.Status, dones)
		}
	}
}

// testWriter sends the notifier's log to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// TestFinishedSkipsTheFocusedSession: a run finishing in the session the
// focused window shows is not notified; one in another session is.
func TestFinishedSkipsTheFocusedSession(t *testing.T) {
	e := newEnv(t)
	srv := e.notifier()
	watched, watchedSession := e.start("demo", "On screen")
	e.waitRun(watched, "started", func(r run.Run) bool { return true })
	if _, err := e.st.Service.SetClientFocus(context.Background(), service.ClientFocus{SessionID: watchedSession, Focused: true}); err != nil {
		t.Fatal(err)
	}
	e.waitRun(watched, "completion", func(r run.Run) bool { return r.Terminal })
	other, _ := e.start("demo", "Elsewhere")
	e.waitRun(other, "completion", func(r run.Run) bool { return r.Terminal })
	calls, err := srv.Wait(30*time.Second, func(c []notifyserver.Notification) bool { return len(c) > 0 })
	if err != nil {
		t.Fatal(err)
	}
	// The focused session's run ended first; give its (wrong) notification
	// the coalescing window to appear before reading what was sent.
	time.Sleep(notify.CoalesceWindow + 200*time.Millisecond)
	calls = srv.Calls()
	if len(calls) != 1 || calls[0].Summary != "Finished — Elsewhere" {
		t.Fatalf("notifications %+v", calls)
	}
}
