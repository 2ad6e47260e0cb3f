//go:build unix

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/execlaunch"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/version"
)

func TestDemoStreamsInOrder(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	if c.NativeSessionID() == "" || c.Pid() == 0 {
		t.Fatalf("session %q pid %d", c.NativeSessionID(), c.Pid())
	}
	rec := newRecorder()
	res := h.turn(c, "hello", rec)
	if res.Err != nil || res.StopReason != "end_turn" || res.Cancelled {
		t.Fatalf("result = %+v", res)
	}
	if res.Usage == nil || res.Usage.OutputTokens != 180 || res.Usage.ReasoningTokens != 30 {
		t.Fatalf("usage = %+v", res.Usage)
	}
	text := rec.text(run.EventTokenDelta)
	for _, want := range []string{"I'm the **demo agent**", "There is no AI", "```go\npackage main", "/scenario tool"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// The shape of the stream: session state first, the thought block closed
	// before the answer starts, the tool card opened and closed in between.
	var shape []run.EventType
	for _, e := range rec.all() {
		if n := len(shape); n == 0 || shape[n-1] != e.Type {
			shape = append(shape, e.Type)
		}
	}
	want := []run.EventType{
		run.EventConfigUpdated, run.EventModelUpdated, run.EventModeUpdated, run.EventCommandsUpdated,
		run.EventReasoningDelta, run.EventReasoningDone, run.EventTokenDelta,
		run.EventToolStarted, run.EventToolDone, run.EventTokenDelta,
	}
	if !equalTypes(shape, want) {
		t.Fatalf("stream shape\n got %v\nwant %v", shape, want)
	}
	// The session's models, for the picker.
	mu := waitFor[run.ModelUpdated](t, rec, run.EventModelUpdated)
	if mu.Model != "demo-small" || len(mu.Available) != 2 || mu.Available[1] != (run.ModelOption{ID: "demo-large", Name: "Demo large"}) {
		t.Fatalf("model.updated = %+v", mu)
	}
	done := waitFor[run.TextDone](t, rec, run.EventReasoningDone)
	if done.Text != rec.text(run.EventReasoningDelta) {
		t.Fatalf("reasoning.done %q != deltas %q", done.Text, rec.text(run.EventReasoningDelta))
	}
}

func equalTypes(a, b []run.EventType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestToolWritesIntoWorkspace(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	res := h.turn(c, "/scenario tool", rec)
	if res.Err != nil || res.StopReason != "end_turn" {
		t.Fatalf("result = %+v", res)
	}
	b, err := os.ReadFile(filepath.Join(h.workspace, "hello.txt"))
	if err != nil || string(b) != "hello from the demo agent\n" {
		t.Fatalf("hello.txt = %q, %v", b, err)
	}
	fc := waitFor[run.FileChanged](t, rec, run.EventFileChanged)
	if fc.Path != "hello.txt" || fc.Action != "created" {
		t.Fatalf("file.changed = %+v", fc)
	}
	if n := rec.count(run.EventToolUpdated); n != 2 {
		t.Fatalf("%d tool.updated; want 2 progress updates", n)
	}
	td := waitFor[run.ToolDone](t, rec, run.EventToolDone)
	if td.ToolCallID != "write-hello" || td.Status != "completed" || !strings.Contains(td.Output, "26 bytes") {
		t.Fatalf("tool.done = %+v", td)
	}
	if n := rec.count(run.EventPlanUpdated); n != 2 {
		t.Fatalf("%d plan.updated; want 2", n)
	}
	// A second write of the same file is a modification.
	rec2 := newRecorder()
	h.turn(c, "/scenario tool", rec2)
	if fc := waitFor[run.FileChanged](t, rec2, run.EventFileChanged); fc.Action != "modified" {
		t.Fatalf("second write: %+v", fc)
	}
}

func TestApproval(t *testing.T) {
	cases := []struct {
		name, answer, wantText string
		wantTool               string // the tool card's final status
	}{
		{"allow by option id", "allow-once", "Permission granted (allow-once)", "completed"},
		{"allow always", "allow-always", "Permission granted (allow-always)", "completed"},
		{"reject by option id", "reject-once", "Permission was denied (reject-once)", "denied"},
		{"reject by generic word", "deny", "Permission was denied (reject-once)", "denied"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			c := h.start("")
			rec := newRecorder()
			done := make(chan adapter.TurnResult, 1)
			go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario approval"}, rec) }()

			ar := waitFor[run.ApprovalRequested](t, rec, run.EventApprovalRequest)
			if ar.ApprovalID == "" || ar.ToolCallID != "run-ls" || ar.Command != "ls -la" || ar.Title != "Run `ls -la`" || len(ar.Options) != 3 {
				t.Fatalf("approval.requested = %+v", ar)
			}
			if ar.Options[0] != (run.ApprovalOption{ID: "allow-once", Label: "Allow once", Kind: "allow_once"}) {
				t.Fatalf("option 0 = %+v", ar.Options[0])
			}
			ctx := context.Background()
			if err := c.RespondApproval(ctx, "appr_nope", "allow-once"); !errors.Is(err, adapter.ErrNotPending) {
				t.Fatalf("unknown id: %v", err)
			}
			if err := c.RespondApproval(ctx, ar.ApprovalID, "maybe"); !errors.Is(err, adapter.ErrInvalidAnswer) {
				t.Fatalf("bad option: %v", err)
			}
			if err := c.RespondClarify(ctx, ar.ApprovalID, "x"); !errors.Is(err, adapter.ErrNotPending) {
				t.Fatalf("clarify answer to an approval: %v", err)
			}
			if err := c.RespondApproval(ctx, ar.ApprovalID, tc.answer); err != nil {
				t.Fatal(err)
			}
			if err := c.RespondApproval(ctx, ar.ApprovalID, tc.answer); !errors.Is(err, adapter.ErrNotPending) {
				t.Fatalf("second answer: %v", err)
			}
			res := <-done
			if res.Err != nil || res.StopReason != "end_turn" {
				t.Fatalf("result = %+v", res)
			}
			if text := rec.text(run.EventTokenDelta); !strings.Contains(text, tc.wantText) {
				t.Fatalf("text = %q; want %q", text, tc.wantText)
			}
			// The permission opens the tool card; its end says what happened.
			if n := rec.count(run.EventToolStarted); n != 1 {
				t.Fatalf("%d tool.started; want 1 (events %v)", n, types(rec.all()))
			}
			if td := waitFor[run.ToolDone](t, rec, run.EventToolDone); td.ToolCallID != "run-ls" || td.Status != tc.wantTool {
				t.Fatalf("tool.done = %+v; want status %s", td, tc.wantTool)
			}
		})
	}
}

func TestClarify(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario clarify"}, rec) }()
	cr := waitFor[run.ClarifyRequested](t, rec, run.EventClarifyRequest)
	if cr.Question != "Which colour should the button be?" || len(cr.Choices) != 3 {
		t.Fatalf("clarify.requested = %+v", cr)
	}
	if err := c.RespondApproval(context.Background(), cr.ClarifyID, "allow"); !errors.Is(err, adapter.ErrNotPending) {
		t.Fatalf("approval answer to a clarify: %v", err)
	}
	if err := c.RespondClarify(context.Background(), cr.ClarifyID, "blue"); err != nil {
		t.Fatal(err)
	}
	if err := c.RespondClarify(context.Background(), cr.ClarifyID, "red"); !errors.Is(err, adapter.ErrNotPending) {
		t.Fatalf("second answer: %v", err)
	}
	if res := <-done; res.Err != nil {
		t.Fatal(res.Err)
	}
	if text := rec.text(run.EventTokenDelta); !strings.Contains(text, "You answered: blue.") {
		t.Fatalf("text = %q", text)
	}
}

func TestCancelMidStream(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario slow"}, rec) }()
	waitFor[run.TextDelta](t, rec, run.EventTokenDelta)
	if err := c.Cancel(context.Background()); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if !res.Cancelled || res.StopReason != "cancelled" || res.Err != nil {
		t.Fatalf("result = %+v", res)
	}
	if strings.Contains(rec.text(run.EventTokenDelta), "Finished") {
		t.Fatal("the slow answer finished despite the cancel")
	}
	// The connection stays usable for the next turn.
	rec2 := newRecorder()
	if res := h.turn(c, "/scenario models", rec2); res.Err != nil || res.Cancelled {
		t.Fatalf("turn after cancel: %+v", res)
	}
}

func TestCancelWhileApprovalPending(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario approval"}, rec) }()
	ar := waitFor[run.ApprovalRequested](t, rec, run.EventApprovalRequest)
	if err := c.Cancel(context.Background()); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if !res.Cancelled || res.Err != nil {
		t.Fatalf("result = %+v", res)
	}
	if err := c.RespondApproval(context.Background(), ar.ApprovalID, "allow-once"); !errors.Is(err, adapter.ErrNotPending) {
		t.Fatalf("answer after cancel: %v", err)
	}
	if td := waitFor[run.ToolDone](t, rec, run.EventToolDone); td.Status != "cancelled" || rec.count(run.EventToolDone) != 1 {
		t.Fatalf("tool.done = %+v (the card must close as cancelled, once)", td)
	}
	if strings.Contains(rec.text(run.EventTokenDelta), "granted") {
		t.Fatal("the tool ran after a cancel")
	}
}

func TestCrashIsAgentExited(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	res := h.turn(c, "/scenario crash", rec)
	if !errors.Is(res.Err, adapter.ErrAgentExited) {
		t.Fatalf("err = %v; want ErrAgentExited", res.Err)
	}
	if res.ExitCode == nil || *res.ExitCode != 3 {
		t.Fatalf("exit code = %v; want 3", res.ExitCode)
	}
	if !strings.Contains(rec.text(run.EventTokenDelta), "halfway there") {
		t.Fatalf("partial output lost: %q", rec.text(run.EventTokenDelta))
	}
	if !strings.Contains(h.log.String(), "simulated crash") {
		t.Fatalf("stderr not in the log:\n%s", h.log.String())
	}
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done not closed after the agent exited")
	}
	if res := h.turn(c, "again", newRecorder()); !errors.Is(res.Err, adapter.ErrAgentExited) {
		t.Fatalf("turn on a dead agent: %v", res.Err)
	}
}

func TestMalformedLinesAreSkipped(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	res := h.turn(c, "/scenario malformed", rec)
	if res.Err != nil || res.StopReason != "end_turn" {
		t.Fatalf("result = %+v", res)
	}
	if text := rec.text(run.EventTokenDelta); text != "Before the garbage. After the garbage: still here, and the turn completes.\n" {
		t.Fatalf("text = %q", text)
	}
	// not JSON, truncated, array, no jsonrpc, stray response, string params,
	// binary: 7 lines; the bad-typed update and unknown kind are the mapper's.
	if got := c.rpc.malformed.Load(); got != 7 {
		t.Fatalf("malformed lines = %d; want 7\n%s", got, h.log.String())
	}
}

func TestFailIsAnError(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	res := h.turn(c, "/scenario fail", newRecorder())
	var re *RPCError
	if !errors.As(res.Err, &re) || !strings.Contains(re.Message, "simulated failure") || res.Cancelled {
		t.Fatalf("result = %+v", res)
	}
	if errors.Is(res.Err, adapter.ErrAgentExited) {
		t.Fatal("a failed prompt is not an exit")
	}
}

func TestFileSystemStaysInWorkspace(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	res := h.turn(c, "/scenario escape", rec)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(h.workspace), "escaped.txt")); !os.IsNotExist(err) {
		t.Fatalf("a file was written outside the workspace: %v", err)
	}
	var dones []run.ToolDone
	for _, e := range rec.all() {
		if e.Type == run.EventToolDone {
			var d run.ToolDone
			_ = json.Unmarshal(e.Payload, &d)
			dones = append(dones, d)
		}
	}
	if len(dones) != 2 {
		t.Fatalf("tool.done = %+v", dones)
	}
	for _, d := range dones {
		if d.Status != "failed" || !strings.Contains(d.Output, "only lets agents") {
			t.Errorf("%s: %+v", d.ToolCallID, d)
		}
	}
	if rec.count(run.EventFileChanged) != 0 {
		t.Fatal("file.changed for a refused write")
	}
}

func TestResumeRemembersPriorTurn(t *testing.T) {
	h := newHarness(t)
	c1 := h.start("")
	id := c1.NativeSessionID()
	h.turn(c1, "/scenario models\nplease remember the word pomegranate", newRecorder())
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	<-c1.Done()

	c2 := h.start(id)
	if c2.NativeSessionID() != id {
		t.Fatalf("resumed session id = %q; want %q", c2.NativeSessionID(), id)
	}
	rec := newRecorder()
	if res := h.turn(c2, "/scenario recall", rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	text := rec.text(run.EventTokenDelta)
	if !strings.HasPrefix(text, "I remember 1 earlier turn") || !strings.Contains(text, "pomegranate") {
		t.Fatalf("recall = %q (the replayed history must not be emitted before it)", text)
	}
}

// An agent that answers session/load before replaying the history (Gemini
// CLI 0.61.0): the trailing replay is not the next turn's output.
func TestResumeWithReplayAfterTheAnswer(t *testing.T) {
	h := newHarness(t)
	// fakeagent.ReplayEnv=ReplayAfter (the fake agent imports this package).
	h.env = []string{"HERMESDESK_FAKEAGENT_REPLAY=after"}
	c1 := h.start("")
	id := c1.NativeSessionID()
	h.turn(c1, "please remember the word pomegranate", newRecorder())
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	<-c1.Done()

	c2 := h.start(id)
	rec := newRecorder()
	if res := h.turn(c2, "/scenario recall", rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	if text := rec.text(run.EventTokenDelta); !strings.HasPrefix(text, "I remember 1 earlier turn") {
		t.Fatalf("recall = %q: the replayed history leaked into the turn", text)
	}
}

func TestResumeOfUnknownSessionStartsNew(t *testing.T) {
	h := newHarness(t)
	c := h.start("fake-00000000000000ff")
	if id := c.NativeSessionID(); id == "" || id == "fake-00000000000000ff" {
		t.Fatalf("session id = %q; want a new one", id)
	}
	if !strings.Contains(h.log.String(), "could not load the session") {
		t.Fatalf("fallback not logged:\n%s", h.log.String())
	}
}

func TestSetModel(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	if err := c.SetModel(context.Background(), "demo-large"); err != nil {
		t.Fatal(err)
	}
	var re *RPCError
	if err := c.SetModel(context.Background(), "no-such-model"); !errors.As(err, &re) {
		t.Fatalf("unknown model: %v", err)
	}
	rec := newRecorder()
	h.turn(c, "/scenario models", rec)
	if text := rec.text(run.EventTokenDelta); !strings.Contains(text, "demo-large") {
		t.Fatalf("text = %q", text)
	}
	var models []string
	for _, e := range rec.all() {
		if e.Type == run.EventModelUpdated {
			var m run.ModelUpdated
			_ = json.Unmarshal(e.Payload, &m)
			models = append(models, m.Model)
		}
	}
	if len(models) == 0 || models[len(models)-1] != "demo-large" {
		t.Fatalf("model.updated = %v", models)
	}
}

func TestSecondTurnIsBusy(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario slow"}, rec) }()
	waitFor[run.TextDelta](t, rec, run.EventTokenDelta)
	if res := c.Turn(context.Background(), adapter.TurnRequest{Message: "x"}, newRecorder()); !errors.Is(res.Err, adapter.ErrBusy) {
		t.Fatalf("second turn: %+v", res)
	}
	_ = c.Cancel(context.Background())
	<-done
}

func TestHangIsKilledByClose(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario hang"}, rec) }()
	waitFor[run.TextDelta](t, rec, run.EventTokenDelta)
	_ = c.Cancel(context.Background()) // ignored by the agent
	// SIGTERM is ignored too: the agent keeps streaming after it.
	if err := syscall.Kill(c.Pid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	before := rec.count(run.EventTokenDelta)
	deadline := time.After(20 * time.Second)
	for rec.count(run.EventTokenDelta) <= before {
		select {
		case <-rec.notify:
		case <-deadline:
			t.Fatal("no output after SIGTERM: the hang scenario did not ignore it")
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("agent still running after Close")
	}
	res := <-done
	if !errors.Is(res.Err, adapter.ErrAgentExited) || !res.Cancelled {
		t.Fatalf("result = %+v", res)
	}
}

func TestEmitsAreNotConcurrent(t *testing.T) {
	// The shim's emitter is safe for concurrent use, but ordering matters:
	// the adapter must never call Emit from two goroutines at once.
	h := newHarness(t)
	c := h.start("")
	var mu sync.Mutex
	inside := false
	overlap := false
	emit := adapter.EmitFunc(func(run.EventType, any) error {
		mu.Lock()
		if inside {
			overlap = true
		}
		inside = true
		mu.Unlock()
		time.Sleep(time.Microsecond)
		mu.Lock()
		inside = false
		mu.Unlock()
		return nil
	})
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario tool"}, emit) }()
	if res := <-done; res.Err != nil {
		t.Fatal(res.Err)
	}
	if overlap {
		t.Fatal("Emit called concurrently")
	}
}

func TestHealth(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), adapter.HealthTimeout)
	defer cancel()
	hl := fakeAgent(fakeAgentBin).Health(ctx, adapter.Config{})
	if !hl.Installed || !hl.OK || !strings.Contains(hl.Version, version.Version) || hl.Path != fakeAgentBin {
		t.Fatalf("demo health = %+v", hl)
	}
	missing := New("ghost", "Ghost agent", []string{"hermesdesk-no-such-agent"}, WithInstallHint("install with: npm install -g ghost"))
	hl = missing.Health(ctx, adapter.Config{})
	if hl.Installed || hl.OK || !strings.Contains(hl.Message, "npm install -g ghost") {
		t.Fatalf("missing health = %+v", hl)
	}
	broken := New("false", "Broken agent", []string{"/bin/false"})
	if hl = broken.Health(ctx, adapter.Config{}); !hl.Installed || hl.OK || hl.Message == "" {
		t.Fatalf("broken health = %+v", hl)
	}
}

func TestStartMissingProgram(t *testing.T) {
	a := New("ghost", "Ghost agent", []string{"hermesdesk-no-such-agent"})
	_, err := a.Start(context.Background(), adapter.StartRequest{Workspace: t.TempDir()}, adapter.Host{Launcher: execlaunch.Launcher{}})
	if !errors.Is(err, adapter.ErrNotInstalled) {
		t.Fatalf("err = %v; want ErrNotInstalled", err)
	}
}

func TestStartAgentThatExitsAtOnce(t *testing.T) {
	a := New("false", "Broken agent", []string{"/bin/sh", "-c", "echo boom >&2; exit 7"})
	log := &syncBuf{}
	_, err := a.Start(context.Background(), adapter.StartRequest{Workspace: t.TempDir()}, adapter.Host{Launcher: execlaunch.Launcher{Stderr: log}, Log: log})
	if !errors.Is(err, adapter.ErrAgentExited) || !strings.Contains(err.Error(), "exit code 7") {
		t.Fatalf("err = %v", err)
	}
}

func TestFloodLosesNothing(t *testing.T) {
	// The SDK's client would close the connection once 1024 updates queue
	// up; ours reads at the consumer's pace, so every chunk arrives.
	h := newHarness(t)
	c := h.start("")
	var deltas, bytesIn int
	emit := adapter.EmitFunc(func(typ run.EventType, p any) error {
		if typ == run.EventTokenDelta {
			deltas++
			bytesIn += len(p.(run.TextDelta).Text)
		}
		return nil
	})
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario flood"}, emit)
	if res.Err != nil || res.StopReason != "end_turn" {
		t.Fatalf("result = %+v", res)
	}
	if want := 100002; deltas != want {
		t.Fatalf("%d token.delta; want %d", deltas, want)
	}
	if want := len("Flooding… ") + 100000 + len("\nflood done\n"); bytesIn != want {
		t.Fatalf("%d bytes of text; want %d", bytesIn, want)
	}
}

func TestTerminal(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	rec := newRecorder()
	if res := h.turn(c, "/scenario terminal", rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	var dones []run.ToolDone
	for _, e := range rec.all() {
		if e.Type == run.EventToolDone {
			var d run.ToolDone
			_ = json.Unmarshal(e.Payload, &d)
			dones = append(dones, d)
		}
	}
	if len(dones) != 2 {
		t.Fatalf("tool.done = %+v", dones)
	}
	if d := dones[0]; d.Status != "completed" || d.Output != "hello from a terminal\non stderr\n[exit code 2]" {
		t.Fatalf("terminal tool = %+v", d)
	}
	if d := dones[1]; d.Status != "failed" || !strings.Contains(d.Output, "only runs commands inside the workspace") {
		t.Fatalf("terminal outside the workspace = %+v", d)
	}
}

func TestCancelBeforeThePromptIsSent(t *testing.T) {
	h := newHarness(t)
	c := h.start("")
	// The session's model.updated is emitted at the start of the first
	// turn, before the prompt goes out: cancel right there.
	var once sync.Once
	emit := adapter.EmitFunc(func(typ run.EventType, _ any) error {
		once.Do(func() {
			if err := c.Cancel(context.Background()); err != nil {
				t.Error(err)
			}
		})
		return nil
	})
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario slow"}, emit)
	if !res.Cancelled || res.Err != nil {
		t.Fatalf("result = %+v", res)
	}
	rec := newRecorder()
	h.turn(c, "/scenario recall", rec)
	if text := rec.text(run.EventTokenDelta); !strings.Contains(text, "first turn") {
		t.Fatalf("the cancelled prompt reached the agent: %q", text)
	}
}

// An agent that starts but never speaks ACP (a chat program waiting on its
// terminal) fails the handshake with a sentence naming its command, not a
// deadline error after the whole handshake's minute.
func TestStartSilentAgentNamesItsCommand(t *testing.T) {
	a := New("silent", "Silent agent", []string{"/bin/sh", "-c", "exec sleep 60"}, WithAnswerTimeout(300*time.Millisecond))
	log := &syncBuf{}
	_, err := a.Start(context.Background(), adapter.StartRequest{Workspace: t.TempDir()}, adapter.Host{Launcher: execlaunch.Launcher{Stderr: log}, Log: log})
	var na *adapter.NoAnswerError
	if !errors.As(err, &na) || na.Command != "/bin/sh -c exec sleep 60" {
		t.Fatalf("err = %v; want a NoAnswerError naming the command", err)
	}
	if msg := na.Error(); !strings.HasPrefix(msg, "The agent did not answer within 1 s") || !strings.Contains(msg, "is `/bin/sh -c exec sleep 60` the right command?") {
		t.Fatalf("message = %q", msg)
	}
	if strings.Contains(err.Error(), "deadline") {
		t.Fatalf("err = %v; says deadline", err)
	}
}

func TestNoAnswerMessage(t *testing.T) {
	err := &adapter.NoAnswerError{Command: "goose acp", After: DefaultAnswerTimeout}
	if got, want := err.Error(), "The agent did not answer within 15 s — is `goose acp` the right command?"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// An agent that reports its settings only as session config options
// (OpenCode, codex-acp): the first turn carries them by name, its model
// selector feeds the model picker, and a model switch goes through
// session/set_config_option.
func TestConfigOptions(t *testing.T) {
	h := newHarness(t)
	h.env = append(h.env, "HERMESDESK_FAKEAGENT_CONFIG=options")
	c := h.start("")
	rec := newRecorder()
	h.turn(c, "/scenario models", rec)
	cu := waitFor[run.ConfigUpdated](t, rec, run.EventConfigUpdated)
	var names []string
	for _, o := range cu.Options {
		names = append(names, o.Name+"="+o.Current)
	}
	if got := strings.Join(names, ", "); got != "Model=demo-small, Mode=build, Reasoning effort=medium, Allow all tools=false" {
		t.Fatalf("config options = %s", got)
	}
	if mode := cu.Options[1]; mode.Category != "mode" || len(mode.Values) != 2 || mode.Values[1] != (run.ConfigValue{ID: "plan", Name: "Plan"}) {
		t.Fatalf("mode option = %+v", mode)
	}
	mu := waitFor[run.ModelUpdated](t, rec, run.EventModelUpdated)
	if mu.Model != "demo-small" || len(mu.Available) != 2 || mu.Available[1].Name != "Demo large" {
		t.Fatalf("model.updated = %+v", mu)
	}
	if err := c.SetModel(context.Background(), "demo-large"); err != nil {
		t.Fatal(err)
	}
	var re *RPCError
	if err := c.SetModel(context.Background(), "no-such-model"); !errors.As(err, &re) {
		t.Fatalf("unknown model: %v", err)
	}
	rec = newRecorder()
	h.turn(c, "/scenario models", rec)
	if text := rec.text(run.EventTokenDelta); !strings.Contains(text, "demo-large") {
		t.Fatalf("the agent did not switch: %q", text)
	}
}

// Settings are set through session/set_config_option (a switch as a
// boolean), the older modes through session/set_mode; a value a setting
// does not offer is refused before the agent is asked.
func TestSetConfigOption(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	h.env = append(h.env, "HERMESDESK_FAKEAGENT_CONFIG=options")
	c := h.start("")
	current := func(opts []run.ConfigOption) string {
		var s []string
		for _, o := range opts {
			s = append(s, o.ID+"="+o.Current)
		}
		return strings.Join(s, " ")
	}
	opts, err := c.SetConfigOption(ctx, "mode", "plan")
	if err != nil {
		t.Fatal(err)
	}
	if opts, err = c.SetConfigOption(ctx, "allow_all", "true"); err != nil {
		t.Fatal(err)
	}
	if got := current(opts); got != "model=demo-small mode=plan reasoning_effort=medium allow_all=true" {
		t.Fatalf("settings = %s", got)
	}
	if _, err := c.SetConfigOption(ctx, "reasoning_effort", "ludicrous"); !errors.Is(err, adapter.ErrInvalidAnswer) || !strings.Contains(err.Error(), "low, medium, high") {
		t.Fatalf("a value not offered: %v", err)
	}
	if _, err := c.SetConfigOption(ctx, "nope", "x"); !errors.Is(err, adapter.ErrInvalidAnswer) {
		t.Fatalf("an unknown setting: %v", err)
	}
	if opts, err = c.SetConfigOption(ctx, "model", "demo-large"); err != nil || c.currentModel() != "demo-large" {
		t.Fatalf("model selector: %v, model %q", err, c.currentModel())
	}

	legacy := newHarness(t).start("") // the demo agent reports modes the older way
	opts, err = legacy.SetConfigOption(ctx, legacyModeOption, "plan")
	if err != nil || current(opts) != "acp.modes=plan" {
		t.Fatalf("set_mode: %v, %s", err, current(opts))
	}
}

// The session's kept choices are applied on the next fresh agent before
// the prompt (docs/ARCHITECTURE.md §Session config options): the new
// session's defaults are reported first (the journal remembers them for
// the agent; a kept model switched before them does not hide them), then
// the set with the choices applied; a choice the agent
// does not offer is dropped (chosen forgets it) with a notice, not an
// error. The agent itself holds the choices: a later agent that loads the
// session reports them, and not as defaults.
func TestKeptChoicesApplyOnAFreshAgent(t *testing.T) {
	h := newHarness(t)
	h.env = append(h.env, "HERMESDESK_FAKEAGENT_CONFIG=options")
	c := h.start("")
	rec := newRecorder()
	done := make(chan adapter.TurnResult, 1)
	go func() {
		done <- c.Turn(context.Background(), adapter.TurnRequest{RunID: "r1", Message: "hello", Model: "demo-large", Settings: map[string]string{
			"mode": "plan", "allow_all": "true", "reasoning_effort": "ludicrous", "gone": "x",
		}}, rec)
	}()
	if res := <-done; res.Err != nil {
		t.Fatalf("turn: %v\n%s", res.Err, h.log.String())
	}
	var configs []run.ConfigUpdated
	for _, e := range rec.all() {
		if e.Type == run.EventConfigUpdated {
			var cu run.ConfigUpdated
			if err := json.Unmarshal(e.Payload, &cu); err != nil {
				t.Fatal(err)
			}
			configs = append(configs, cu)
		}
	}
	current := func(cu run.ConfigUpdated) string {
		var s []string
		for _, o := range cu.Options {
			s = append(s, o.ID+"="+o.Current)
		}
		return strings.Join(s, " ")
	}
	if len(configs) != 2 || !configs[0].Defaults || configs[1].Defaults {
		t.Fatalf("config.updated events: %+v", configs)
	}
	if got := current(configs[0]); got != "model=demo-small mode=build reasoning_effort=medium allow_all=false" {
		t.Fatalf("defaults = %s", got)
	}
	if got := current(configs[1]); got != "model=demo-large mode=plan reasoning_effort=medium allow_all=true" {
		t.Fatalf("applied = %s", got)
	}
	if want := map[string]string{"gone": "", "reasoning_effort": ""}; !reflect.DeepEqual(configs[1].Chosen, want) {
		t.Fatalf("chosen = %v, want %v", configs[1].Chosen, want)
	}
	n := waitFor[run.Notice](t, rec, run.EventNotice)
	if !strings.Contains(n.Message, `Reasoning effort "ludicrous"`) || !strings.Contains(n.Message, `the setting gone "x"`) {
		t.Fatalf("notice = %q", n.Message)
	}

	later := h.start(c.NativeSessionID())
	rec = newRecorder()
	h.turn(later, "hello", rec)
	cu := waitFor[run.ConfigUpdated](t, rec, run.EventConfigUpdated)
	if got := current(cu); cu.Defaults || got != "model=demo-large mode=plan reasoning_effort=medium allow_all=true" {
		t.Fatalf("loaded session: %s (defaults %v)", got, cu.Defaults)
	}

	// The older modes (session/set_mode): the mode's own event follows,
	// after the one session/new reported.
	legacy := newHarness(t)
	lc := legacy.start("")
	rec = newRecorder()
	go func() {
		done <- lc.Turn(context.Background(), adapter.TurnRequest{RunID: "r2", Message: "hello", Model: "demo-large", Settings: map[string]string{legacyModeOption: "plan"}}, rec)
	}()
	if res := <-done; res.Err != nil {
		t.Fatalf("turn: %v", res.Err)
	}
	var modes []string
	for _, e := range rec.all() {
		var m run.ModeUpdated
		if e.Type == run.EventModeUpdated && json.Unmarshal(e.Payload, &m) == nil {
			modes = append(modes, m.Mode)
		}
	}
	if len(modes) == 0 || modes[len(modes)-1] != "plan" {
		t.Fatalf("mode.updated events: %v", modes)
	}
	// The older models too: the new session's are its defaults, not
	// hidden by the session's model switched before the prompt.
	var models []string
	for _, e := range rec.all() {
		var m run.ModelUpdated
		if e.Type == run.EventModelUpdated && json.Unmarshal(e.Payload, &m) == nil {
			models = append(models, fmt.Sprintf("%s/%d%s", m.Model, len(m.Available), map[bool]string{true: " (defaults)"}[m.Defaults]))
		}
	}
	if got := strings.Join(models, ", "); got != "demo-small/2 (defaults), demo-large/0" {
		t.Fatalf("model.updated events: %s", got)
	}
}
