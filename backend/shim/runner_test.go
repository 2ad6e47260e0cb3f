package shim

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

func connAdapter(caps adapter.Capabilities, c *fakeConn) *fakeAdapter {
	return &fakeAdapter{caps: caps, start: func(context.Context, adapter.StartRequest, adapter.Host) (adapter.Conn, error) {
		return c, nil
	}}
}

func TestRunOpensAndCompletes(t *testing.T) {
	c := &fakeConn{nativeID: "native-9", turn: func(_ context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
		emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "hello " + req.Message})
		return adapter.TurnResult{StopReason: "end_turn", Usage: &run.Usage{OutputTokens: 3}}
	}}
	h := startHarness(t, connAdapter(adapter.Capabilities{}, c), nil)
	h.wait()
	var types []run.EventType
	for _, ev := range h.j.all() {
		types = append(types, ev.Type)
	}
	want := []run.EventType{run.EventRunStarted, run.EventMessageUser, run.EventStatus, run.EventStatus, run.EventTokenDelta, run.EventDone}
	if fmt.Sprint(types) != fmt.Sprint(want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	d := h.done()
	if d.Status != run.StatusCompleted || d.StopReason != "end_turn" || d.Usage == nil || d.Usage.OutputTokens != 3 {
		t.Fatalf("done %+v", d)
	}
	if h.j.native != "native-9" {
		t.Fatalf("native session id not stored: %q", h.j.native)
	}
	if res := h.control(control.Request{Op: control.OpCancel}); res.Status != run.ControlNotActive {
		t.Fatalf("cancel after the end: %+v", res)
	}
}

// An agent with a process per turn (hermes chat) names its session only
// when the turn ends; the next run must still be able to resume it.
func TestRunStoresASessionIDNamedDuringTheTurn(t *testing.T) {
	c := &fakeConn{}
	c.turn = func(_ context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
		emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "hi"})
		c.nativeID = "late-7"
		return adapter.TurnResult{StopReason: "end_turn"}
	}
	h := startHarness(t, connAdapter(adapter.Capabilities{}, c), nil)
	h.wait()
	if d := h.done(); d.Status != run.StatusCompleted {
		t.Fatalf("done %+v", d)
	}
	if h.j.native != "late-7" {
		t.Fatalf("native session id named during the turn not stored: %q", h.j.native)
	}
}

// An approval: resolution committed before the agent hears it; answered
// once; repeats not-active; a different answer conflict; an unknown id
// not-active; an option that was not offered invalid.
func TestApprovalResolution(t *testing.T) {
	var j memJournal
	answered := make(chan string, 4)
	// The turn stays open until every control below was tried: once the
	// run has ended, every answer is not-active.
	stepsDone := make(chan struct{})
	var told atomic.Int32
	c := &fakeConn{}
	c.turn = func(_ context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
		emit.Emit(run.EventApprovalRequest, &run.ApprovalRequested{ApprovalID: "a1", Title: "rm", Options: []run.ApprovalOption{
			{ID: "yes", Label: "Allow", Kind: "allow_once"}, {ID: "no", Label: "Deny", Kind: "reject_once"}}})
		choice := <-answered
		<-stepsDone
		emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "got " + choice})
		return adapter.TurnResult{}
	}
	c.respondApproval = func(_ context.Context, id, option string) error {
		if !j.has(run.EventApprovalResolved) {
			t.Error("the agent was told before the resolution was committed")
		}
		told.Add(1)
		answered <- option
		return nil
	}
	h := startHarness(t, connAdapter(adapter.Capabilities{Approvals: true}, c), &j)
	waitUntil(t, "the approval", func() bool { return j.has(run.EventApprovalRequest) })
	if st := h.r.state(); st.PendingApprovalID != "a1" || st.Status != run.StatusAwaitingApproval {
		t.Fatalf("state %+v", st)
	}
	steps := []struct {
		id, choice string
		want       run.ControlStatus
		message    string
	}{
		{"nope", "yes", run.ControlNotActive, ""},
		// A choice that matches nothing is bad input naming the choices,
		// and leaves the approval pending.
		{"a1", "maybe", run.ControlInvalid, `"maybe" is not one of the offered choices: yes (Allow), no (Deny)`},
		{"a1", "allow", run.ControlAccepted, ""}, // the alias of the first allow option; answered from a notification
		{"a1", "allow", run.ControlNotActive, ""},
		{"a1", "allow_once", run.ControlNotActive, ""}, // the same option in other words
		{"a1", "deny", run.ControlConflict, ""},
	}
	for _, s := range steps {
		res := h.control(control.Request{Op: control.OpApproval, ApprovalID: s.id, Choice: s.choice, By: run.AnsweredByNotification})
		if res.Status != s.want || res.Accepted != (s.want == run.ControlAccepted) || !strings.Contains(res.Message, s.message) {
			t.Fatalf("approve(%s, %s) = %+v, want %s %q", s.id, s.choice, res, s.want, s.message)
		}
		if s.want == run.ControlAccepted && res.EventID == "" {
			t.Fatal("accepted without an event id")
		}
	}
	close(stepsDone)
	h.wait()
	if told.Load() != 1 {
		t.Fatalf("the agent was told %d times", told.Load())
	}
	if d := h.done(); d.Status != run.StatusCompleted {
		t.Fatalf("done %+v", d)
	}
	if !strings.Contains(string(h.j.all()[len(h.j.all())-2].Payload), "got yes") {
		t.Fatal("the agent did not get the option id")
	}
	for _, ev := range h.j.all() {
		if ev.Type == run.EventApprovalResolved && !strings.Contains(string(ev.Payload), `"by":"notification"`) {
			t.Fatalf("approval.resolved does not say it was answered from the notification: %s", ev.Payload)
		}
	}
}

func TestClarifyUnsupportedAndUnknown(t *testing.T) {
	block := make(chan struct{})
	c := &fakeConn{turn: func(context.Context, adapter.TurnRequest, adapter.Emitter) adapter.TurnResult {
		<-block
		return adapter.TurnResult{}
	}}
	h := startHarness(t, connAdapter(adapter.Capabilities{Approvals: true}, c), nil)
	// Not the first status{running} (written before the adapter is even
	// looked up): until the agent is connected, its capabilities are not
	// known and a model switch is "still starting".
	waitUntil(t, "the agent", func() bool { h.r.mu.Lock(); defer h.r.mu.Unlock(); return h.r.conn != nil })
	if res := h.control(control.Request{Op: control.OpClarify, ClarifyID: "c", Answer: "x"}); res.Status != run.ControlUnsupported {
		t.Fatalf("clarify on an agent without clarify: %+v", res)
	}
	if res := h.control(control.Request{Op: control.OpApproval, ApprovalID: "x", Choice: "y"}); res.Status != run.ControlNotActive {
		t.Fatalf("unknown approval: %+v", res)
	}
	if res := h.control(control.Request{Op: control.OpModel, Model: "m"}); res.Status != run.ControlUnsupported {
		t.Fatalf("model switch: %+v", res)
	}
	close(block)
	h.wait()
}

// Cancel runs the ladder; an adapter that never gives the turn back is
// abandoned after SIGKILL; the run still ends with one done{cancelled} and
// keeps its partial output. Open prompts are withdrawn.
func TestCancelAbandonsStuckAdapter(t *testing.T) {
	var cancels atomic.Int32
	c := &fakeConn{
		turn: func(_ context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
			emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "partial"})
			emit.Emit(run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "a1", Options: []run.ApprovalOption{{ID: "ok"}}})
			select {} // ignores cancel, never returns
		},
		cancel: func(context.Context) error { cancels.Add(1); return nil },
	}
	h := startHarness(t, connAdapter(adapter.Capabilities{Approvals: true, Cancel: true}, c), nil)
	waitUntil(t, "the approval", func() bool { return h.j.has(run.EventApprovalRequest) })
	if res := h.control(control.Request{Op: control.OpCancel}); !res.Accepted || res.EventID == "" {
		t.Fatalf("cancel: %+v", res)
	}
	if res := h.control(control.Request{Op: control.OpCancel}); res.Status != run.ControlNotActive {
		t.Fatalf("second cancel: %+v", res)
	}
	if res := h.control(control.Request{Op: control.OpApproval, ApprovalID: "a1", Choice: "ok"}); res.Status != run.ControlNotActive {
		t.Fatalf("approval withdrawn by the cancel: %+v", res)
	}
	h.wait()
	if d := h.done(); d.Status != run.StatusCancelled {
		t.Fatalf("done %+v", d)
	}
	if cancels.Load() != 1 {
		t.Fatalf("protocol cancel sent %d times", cancels.Load())
	}
	if !h.j.has(run.EventTokenDelta) || !h.j.has(run.EventApprovalResolved) {
		t.Fatal("partial output or the withdrawal is missing")
	}
}

func TestCancelWhileAgentStarts(t *testing.T) {
	a := &fakeAdapter{start: func(ctx context.Context, _ adapter.StartRequest, _ adapter.Host) (adapter.Conn, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	h := startHarness(t, a, nil)
	waitUntil(t, "starting", func() bool { return h.j.has(run.EventStatus) })
	if res := h.control(control.Request{Op: control.OpCancel}); !res.Accepted {
		t.Fatalf("cancel: %+v", res)
	}
	h.wait()
	if d := h.done(); d.Status != run.StatusCancelled {
		t.Fatalf("done %+v", d)
	}
}

// A cancel that lands before the agent is being started (here: while the
// run's opening events are written, before the start can be cancelled)
// ends the run at once: the agent is never started, and no rung of the
// ladder (whose grace is made longer than the test's patience) is needed.
func TestCancelBeforeAgentStart(t *testing.T) {
	var started atomic.Bool
	a := &fakeAdapter{start: func(ctx context.Context, _ adapter.StartRequest, _ adapter.Host) (adapter.Conn, error) {
		started.Store(true)
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	j := &memJournal{}
	ready := make(chan struct{})
	var h *harness
	var fired atomic.Bool
	res := make(chan control.Response, 1)
	j.after = func(ev run.Event) {
		// The first status event is the opening's, on the run goroutine.
		if ev.Type == run.EventStatus && fired.CompareAndSwap(false, true) {
			<-ready
			res <- h.r.handle(context.Background(), control.Request{Op: control.OpCancel})
		}
	}
	h = startHarnessWith(t, a, j, func(s *control.Spec) { s.CancelGraceMs = 60_000 })
	close(ready)
	h.wait()
	if r := <-res; r.Result == nil || !r.Result.Accepted {
		t.Fatalf("cancel: %+v", r)
	}
	if d := h.done(); d.Status != run.StatusCancelled || d.Error != "" {
		t.Fatalf("done %+v, want cancelled without the ladder's kill", d)
	}
	if started.Load() {
		t.Fatal("the agent was started after the run was cancelled")
	}
}

func TestStartFailures(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		health string
		want   string
	}{
		{"not installed, with a hint", fmt.Errorf("x: %w", adapter.ErrNotInstalled), "Fake not found — install it", "Fake not found — install it"},
		{"not installed", adapter.ErrNotInstalled, "", "Fake agent is not installed."},
		{"handshake failed", errBoom, "", "Fake agent could not be started: boom"},
		{"agent silent", fmt.Errorf("acp: Fake: %w", &adapter.NoAnswerError{Command: "goose acp", After: 15e9}), "",
			"The agent did not answer within 15 s — is `goose acp` the right command?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &fakeAdapter{
				start: func(context.Context, adapter.StartRequest, adapter.Host) (adapter.Conn, error) { return nil, tc.err },
				health: func(context.Context, adapter.Config) adapter.Health {
					return adapter.Health{Message: tc.health}
				},
			}
			h := startHarness(t, a, nil)
			h.wait()
			d := h.done()
			if d.Status != run.StatusFailed || d.Error != tc.want {
				t.Fatalf("done %+v, want failed %q", d, tc.want)
			}
			if !h.j.has(run.EventError) {
				t.Fatal("no error event")
			}
		})
	}
}

// A journal that stops accepting events (full disk) ends the run failed
// with that reason; the terminal event is still written.
func TestJournalFailureEndsRunFailed(t *testing.T) {
	j := &memJournal{}
	var tokens atomic.Int32
	j.fail = func(t run.EventType, sync bool) error {
		if t == run.EventTokenDelta && tokens.Add(1) > 3 {
			return fmt.Errorf("insert: %w", ErrDiskFull)
		}
		return nil
	}
	c := streamingConn()
	h := startHarness(t, connAdapter(adapter.Capabilities{Cancel: true}, c), j)
	h.wait()
	d := h.done()
	if d.Status != run.StatusFailed || !strings.Contains(d.Error, "disk is full") {
		t.Fatalf("done %+v", d)
	}
}

func TestShimStopInterrupts(t *testing.T) {
	c := &fakeConn{turn: func(context.Context, adapter.TurnRequest, adapter.Emitter) adapter.TurnResult { select {} }}
	h := startHarness(t, connAdapter(adapter.Capabilities{}, c), nil)
	waitUntil(t, "running", func() bool { return h.j.has(run.EventStatus) })
	h.r.triggerShutdown()
	h.wait()
	if d := h.done(); d.Status != run.StatusInterrupted {
		t.Fatalf("done %+v", d)
	}
}

func TestSetModel(t *testing.T) {
	block := make(chan struct{})
	var got string
	c := &fakeConn{
		turn: func(context.Context, adapter.TurnRequest, adapter.Emitter) adapter.TurnResult {
			<-block
			return adapter.TurnResult{}
		},
		setModel: func(_ context.Context, m string) error { got = m; return nil },
	}
	h := startHarness(t, connAdapter(adapter.Capabilities{Models: true}, c), nil)
	waitUntil(t, "the agent", func() bool { h.r.mu.Lock(); defer h.r.mu.Unlock(); return h.r.conn != nil })
	if res := h.control(control.Request{Op: control.OpModel, Model: "big"}); !res.Accepted || got != "big" {
		t.Fatalf("set model: %+v (agent got %q)", res, got)
	}
	if !h.j.has(run.EventModelUpdated) {
		t.Fatal("model.updated not recorded")
	}
	close(block)
	h.wait()
}

func TestDecodeAndMatch(t *testing.T) {
	want := run.ApprovalRequested{ApprovalID: "a", Options: []run.ApprovalOption{{ID: "o1", Kind: "allow_once"}, {ID: "o2", Kind: "reject_once"}}}
	for _, p := range []any{want, &want, map[string]any{"approval_id": "a", "options": []map[string]string{{"id": "o1", "kind": "allow_once"}, {"id": "o2", "kind": "reject_once"}}}} {
		got, ok := decode[run.ApprovalRequested](p)
		if !ok || got.ApprovalID != "a" || len(got.Options) != 2 {
			t.Fatalf("decode(%T) = %+v, %v", p, got, ok)
		}
	}
	if _, ok := decode[run.ApprovalRequested](func() {}); ok {
		t.Fatal("decoded a func")
	}
}

// A run that asked to resume the agent's session but got a new one says so
// in its transcript; one that resumed, or had nothing to resume, does not.
func TestResumeLostIsShown(t *testing.T) {
	tests := []struct {
		name, wanted, got string
		notice            bool
	}{
		{"resumed", "native-1", "native-1", false},
		{"first run", "", "native-1", false},
		{"fell back to a new session", "native-1", "native-2", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeConn{nativeID: tt.got, turn: func(context.Context, adapter.TurnRequest, adapter.Emitter) adapter.TurnResult {
				return adapter.TurnResult{StopReason: "end_turn"}
			}}
			h := startHarnessWith(t, connAdapter(adapter.Capabilities{Resume: true}, c), nil, func(s *control.Spec) {
				s.NativeSessionID = tt.wanted
			})
			h.wait()
			shown := false
			for _, ev := range h.j.all() {
				if ev.Type == run.EventNotice && strings.Contains(string(ev.Payload), "could not resume") {
					shown = true
				}
			}
			if shown != tt.notice {
				t.Fatalf("notice shown = %v, want %v", shown, tt.notice)
			}
		})
	}
}

// configConn is a fakeConn whose agent has session settings.
type configConn struct {
	*fakeConn
	set func(ctx context.Context, id, value string) ([]run.ConfigOption, error)
}

func (c configConn) SetConfigOption(ctx context.Context, id, value string) ([]run.ConfigOption, error) {
	return c.set(ctx, id, value)
}

// A setting is set through the agent first, then its new set is recorded
// with the choice the session keeps (a model selector's as the person's
// model instead); a value it does not offer is invalid; an agent without
// settings is unsupported. The session's kept choices reach the turn.
func TestSetConfig(t *testing.T) {
	block := make(chan struct{})
	settings := make(chan map[string]string, 1)
	base := &fakeConn{turn: func(_ context.Context, req adapter.TurnRequest, _ adapter.Emitter) adapter.TurnResult {
		settings <- req.Settings
		<-block
		return adapter.TurnResult{}
	}}
	var asked []string
	c := configConn{fakeConn: base, set: func(_ context.Context, id, value string) ([]run.ConfigOption, error) {
		asked = append(asked, id+"="+value)
		if value == "ludicrous" {
			return nil, fmt.Errorf("%q is not one of the choices: %w", value, adapter.ErrInvalidAnswer)
		}
		return []run.ConfigOption{
			{ID: "model", Name: "Model", Category: "model", Type: "select", Current: "m2"},
			{ID: "effort", Name: "Effort", Category: "thought_level", Type: "select", Current: value},
		}, nil
	}}
	a := &fakeAdapter{start: func(context.Context, adapter.StartRequest, adapter.Host) (adapter.Conn, error) { return c, nil }}
	h := startHarnessWith(t, a, nil, func(s *control.Spec) { s.SessionConfig = map[string]string{"mode": "plan"} })
	if got := <-settings; !reflect.DeepEqual(got, map[string]string{"mode": "plan"}) {
		t.Fatalf("the turn's settings = %v", got)
	}
	if res := h.control(control.Request{Op: control.OpConfig, ConfigID: "effort", Value: "high"}); !res.Accepted {
		t.Fatalf("set effort: %+v", res)
	}
	if !h.j.has(run.EventConfigUpdated) || h.j.has(run.EventModelUpdated) {
		t.Fatal("config.updated (and no model.updated) should be recorded")
	}
	chosen := func() []map[string]string {
		var out []map[string]string
		for _, ev := range h.j.all() {
			var cu run.ConfigUpdated
			if ev.Type == run.EventConfigUpdated && json.Unmarshal(ev.Payload, &cu) == nil {
				out = append(out, cu.Chosen)
			}
		}
		return out
	}
	if got := chosen(); len(got) != 1 || !reflect.DeepEqual(got[0], map[string]string{"effort": "high"}) {
		t.Fatalf("kept choices recorded: %v", got)
	}
	if res := h.control(control.Request{Op: control.OpConfig, ConfigID: "effort", Value: "ludicrous"}); res.Status != run.ControlInvalid || !strings.Contains(res.Message, "ludicrous") {
		t.Fatalf("a value not offered: %+v", res)
	}
	if res := h.control(control.Request{Op: control.OpConfig, ConfigID: "model", Value: "m2"}); !res.Accepted || !h.j.has(run.EventModelUpdated) {
		t.Fatalf("model selector: %+v; model.updated recorded: %v", res, h.j.has(run.EventModelUpdated))
	}
	if got := chosen(); len(got) != 2 || got[1] != nil {
		t.Fatalf("a model selector's choice is kept as the model, not as a setting: %v", got)
	}
	if fmt.Sprint(asked) != "[effort=high effort=ludicrous model=m2]" {
		t.Fatalf("the agent was asked %v", asked)
	}
	close(block)
	h.wait()
	if res := h.control(control.Request{Op: control.OpConfig, ConfigID: "effort", Value: "low"}); res.Status != run.ControlNotActive {
		t.Fatalf("after the end: %+v", res)
	}

	block2 := make(chan struct{})
	plain := &fakeConn{turn: func(context.Context, adapter.TurnRequest, adapter.Emitter) adapter.TurnResult {
		<-block2
		return adapter.TurnResult{}
	}}
	h2 := startHarness(t, connAdapter(adapter.Capabilities{}, plain), nil)
	waitUntil(t, "the agent", func() bool { h2.r.mu.Lock(); defer h2.r.mu.Unlock(); return h2.r.conn != nil })
	if res := h2.control(control.Request{Op: control.OpConfig, ConfigID: "effort", Value: "high"}); res.Status != run.ControlUnsupported {
		t.Fatalf("an agent without settings: %+v", res)
	}
	close(block2)
	h2.wait()
}

// Two approvals waiting at once (21.10): the run waits for the oldest;
// answering it moves to the next (next_pending), answering the newer
// first leaves the older pending; the run reads running only when none
// waits.
func TestTwoApprovalsWaiting(t *testing.T) {
	for _, order := range [][2]string{{"a1", "a2"}, {"a2", "a1"}} {
		t.Run(order[0]+" first", func(t *testing.T) {
			var j memJournal
			release := make(chan struct{})
			c := &fakeConn{respondApproval: func(context.Context, string, string) error { return nil }}
			c.turn = func(_ context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
				opts := []run.ApprovalOption{{ID: "yes", Kind: "allow_once"}}
				emit.Emit(run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "a1", Title: "Read README.md", Options: opts})
				emit.Emit(run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "a2", Title: "rm -rf ~/important", Options: opts})
				<-release
				return adapter.TurnResult{}
			}
			h := startHarness(t, connAdapter(adapter.Capabilities{Approvals: true}, c), &j)
			waitUntil(t, "both approvals", func() bool {
				n := 0
				for _, ev := range j.all() {
					if ev.Type == run.EventApprovalRequest {
						n++
					}
				}
				return n == 2
			})
			check := func(when string, status run.Status, pending string) {
				t.Helper()
				h.r.mu.Lock()
				st := h.r.runState
				h.r.mu.Unlock()
				if st.Status != status || st.PendingApprovalID != pending || h.r.state().PendingApprovalID != pending {
					t.Fatalf("%s: state %+v, control state pending %q; want %s %q", when, st, h.r.state().PendingApprovalID, status, pending)
				}
			}
			check("both asked", run.StatusAwaitingApproval, "a1")
			if res := h.control(control.Request{Op: control.OpApproval, ApprovalID: order[0], Choice: "allow"}); !res.Accepted {
				t.Fatalf("first answer: %+v", res)
			}
			check("one answered", run.StatusAwaitingApproval, order[1])
			if res := h.control(control.Request{Op: control.OpApproval, ApprovalID: order[1], Choice: "allow"}); !res.Accepted {
				t.Fatalf("second answer: %+v", res)
			}
			check("both answered", run.StatusRunning, "")
			close(release)
			h.wait()
		})
	}
}
