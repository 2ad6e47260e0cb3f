package notify

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func st(id string, s run.Status, p *run.PendingPrompt) run.RunState {
	return run.RunState{RunID: id, SessionID: "s-" + id, Agent: "demo", SessionTitle: "Task " + id, Status: s, Pending: p}
}

func appr(id string) *run.PendingPrompt {
	return &run.PendingPrompt{Kind: run.PendingApproval, ID: id, Title: "Run ls", Command: "ls -la",
		Options: []run.ApprovalOption{{ID: "allow_once", Label: "Allow once"}, {ID: "reject_once", Label: "Reject"}}}
}

func TestAllowed(t *testing.T) {
	on := DefaultSettings()
	tests := []struct {
		name string
		k    Kind
		s    Settings
		f    Focus
		want bool
	}{
		{"default needs you", KindNeedsYou, on, Focus{}, true},
		{"default finished", KindFinished, on, Focus{}, true},
		{"default failed", KindFailed, on, Focus{}, true},
		{"dnd", KindNeedsYou, Settings{NeedsYou: true, DND: true}, Focus{}, false},
		{"needs you off", KindNeedsYou, Settings{Finished: true, Failed: true}, Focus{}, false},
		{"finished off", KindFinished, Settings{NeedsYou: true, Failed: true}, Focus{}, false},
		{"failed off", KindFailed, Settings{NeedsYou: true, Finished: true}, Focus{}, false},
		{"focused on that session", KindFinished, on, Focus{SessionID: "s1", Focused: true}, false},
		{"window shows it but is not focused", KindFinished, on, Focus{SessionID: "s1"}, true},
		{"focused on another session", KindNeedsYou, on, Focus{SessionID: "s2", Focused: true}, true},
		{"default quota", KindQuota, on, Focus{}, true},
		{"quota off", KindQuota, Settings{NeedsYou: true, Finished: true, Failed: true}, Focus{}, false},
		{"unknown kind", Kind("x"), on, Focus{}, false},
	}
	for _, tc := range tests {
		if got := Allowed(tc.k, tc.s, tc.f, "s1"); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestParseSettings(t *testing.T) {
	tests := []struct {
		in   map[string]string
		want Settings
	}{
		{nil, DefaultSettings()},
		{map[string]string{SettingFinished: "false", SettingDND: "true"}, Settings{NeedsYou: true, Failed: true, DND: true, Quota: true}},
		{map[string]string{SettingNeedsYou: `"no"`, SettingFailed: "false"}, Settings{NeedsYou: true, Finished: true, Quota: true}},
		{map[string]string{SettingQuota: "false"}, Settings{NeedsYou: true, Finished: true, Failed: true}},
	}
	for i, tc := range tests {
		m := map[string]json.RawMessage{}
		for k, v := range tc.in {
			m[k] = json.RawMessage(v)
		}
		if got := ParseSettings(m); got != tc.want {
			t.Errorf("%d: %+v, want %+v", i, got, tc.want)
		}
	}
}

func TestClassify(t *testing.T) {
	a1, a2 := appr("a1"), appr("a2")
	tests := []struct {
		name      string
		prev      *run.RunState
		cur       run.RunState
		newPrompt string
		gone      string
		ended     Kind
		quota     QuotaChange
	}{
		{"first seen running", nil, st("r", run.StatusRunning, nil), "", "", "", ""},
		{"first seen with prompt", nil, st("r", run.StatusAwaitingApproval, a1), "a1", "", "", ""},
		{"prompt appears", ptr(st("r", run.StatusRunning, nil)), st("r", run.StatusAwaitingApproval, a1), "a1", "", "", ""},
		{"same prompt again", ptr(st("r", run.StatusAwaitingApproval, a1)), st("r", run.StatusAwaitingApproval, a1), "", "", "", ""},
		{"prompt answered", ptr(st("r", run.StatusAwaitingApproval, a1)), st("r", run.StatusRunning, nil), "", "a1", "", ""},
		{"next prompt", ptr(st("r", run.StatusAwaitingApproval, a1)), st("r", run.StatusAwaitingApproval, a2), "a2", "a1", "", ""},
		{"completed", ptr(st("r", run.StatusRunning, nil)), st("r", run.StatusCompleted, nil), "", "", KindFinished, ""},
		{"failed", ptr(st("r", run.StatusRunning, nil)), st("r", run.StatusFailed, nil), "", "", KindFailed, ""},
		{"interrupted", nil, st("r", run.StatusInterrupted, nil), "", "", KindFailed, ""},
		{"cancelled is not told", ptr(st("r", run.StatusRunning, nil)), st("r", run.StatusCancelled, nil), "", "", "", ""},
		{"cancelled while asking", ptr(st("r", run.StatusAwaitingApproval, a1)), st("r", run.StatusCancelled, nil), "", "a1", "", ""},
		{"parks on a rate limit", ptr(st("r", run.StatusRunning, nil)), st("r", run.StatusParked, nil), "", "", "", QuotaParked},
		{"first seen parked", nil, st("r", run.StatusParked, nil), "", "", "", QuotaParked},
		{"still parked", ptr(st("r", run.StatusParked, nil)), st("r", run.StatusParked, nil), "", "", "", ""},
		{"parked drops its prompt", ptr(st("r", run.StatusAwaitingApproval, a1)), st("r", run.StatusParked, nil), "", "a1", "", QuotaParked},
		{"resumed at the reset", ptr(st("r", run.StatusParked, nil)), st("r", run.StatusRunning, nil), "", "", "", QuotaResumed},
		{"a cancelled parked run is not told", ptr(st("r", run.StatusParked, nil)), st("r", run.StatusCancelled, nil), "", "", "", ""},
	}
	for _, tc := range tests {
		c := Classify(tc.prev, tc.cur)
		np := ""
		if c.NewPrompt != nil {
			np = c.NewPrompt.ID
		}
		if np != tc.newPrompt || c.GonePrompt != tc.gone || c.Ended != tc.ended || c.Quota != tc.quota {
			t.Errorf("%s: %+v", tc.name, c)
		}
	}
}

func ptr(r run.RunState) *run.RunState { return &r }

func changed(r run.RunState) run.WatchMessage {
	return run.WatchMessage{Type: run.WatchRunChanged, Run: &r}
}

func opsString(ops []Op) string {
	var s []string
	for _, op := range ops {
		if op.Kind == OpSend {
			s = append(s, "send "+op.Note.Key)
		} else {
			s = append(s, "withdraw "+op.Key)
		}
	}
	return strings.Join(s, ", ")
}

// TestEngineSequences walks the engine through what the bus says.
func TestEngineSequences(t *testing.T) {
	type step struct {
		msg   *run.WatchMessage
		focus *Focus
		flush time.Duration // Flush at t0+flush, if set
		want  string
	}
	snap := func(rs ...run.RunState) *run.WatchMessage {
		return &run.WatchMessage{Type: run.WatchSnapshotType, Snapshot: &run.WatchSnapshot{Runs: rs}}
	}
	ch := func(r run.RunState) *run.WatchMessage { m := changed(r); return &m }
	tests := []struct {
		name  string
		steps []step
	}{
		{"approval shown then answered elsewhere", []step{
			{msg: snap()},
			{msg: ch(st("r", run.StatusRunning, nil))},
			{msg: ch(st("r", run.StatusAwaitingApproval, appr("a1"))), want: "send prompt:r:a1"},
			{msg: ch(st("r", run.StatusRunning, nil)), want: "withdraw prompt:r:a1"},
			{msg: ch(st("r", run.StatusCompleted, nil))},
			{flush: 500 * time.Millisecond},
			{flush: time.Second, want: "send ended:1"},
		}},
		{"a second request is a new notification, never the first replaced in place", []step{
			{msg: snap(st("r", run.StatusAwaitingApproval, appr("a1"))), want: "send prompt:r:a1"},
			{msg: ch(st("r", run.StatusAwaitingApproval, appr("a2"))), want: "withdraw prompt:r:a1, send prompt:r:a2"},
		}},
		{"reconnect does not repeat; a prompt gone meanwhile is withdrawn", []step{
			{msg: snap(st("r", run.StatusAwaitingApproval, appr("a1")), st("q", run.StatusAwaitingApproval, appr("b1"))), want: "send prompt:q:b1, send prompt:r:a1"},
			{msg: snap(st("r", run.StatusAwaitingApproval, appr("a1"))), want: "withdraw prompt:q:b1"},
		}},
		{"focus on the session: nothing, and its prompt is withdrawn", []step{
			{msg: snap()},
			{focus: &Focus{SessionID: "s-r", Focused: true}},
			{msg: ch(st("r", run.StatusAwaitingApproval, appr("a1")))},
			{msg: ch(st("q", run.StatusAwaitingApproval, appr("b1"))), want: "send prompt:q:b1"},
			{focus: &Focus{SessionID: "s-q", Focused: true}, want: "withdraw prompt:q:b1"},
			{msg: ch(st("q", run.StatusCompleted, nil))},
			{flush: 2 * time.Second},
		}},
		{"a run parks on its rate limit and resumes at the reset: told in one notification, replaced in place", []step{
			{msg: snap(st("r", run.StatusRunning, nil))},
			{msg: ch(st("r", run.StatusParked, nil)), want: "send quota:r"},
			{msg: ch(st("r", run.StatusParked, nil))},
			{msg: ch(st("r", run.StatusRunning, nil)), want: "send quota:r"},
			{msg: ch(st("r", run.StatusCompleted, nil))},
			{flush: time.Second, want: "send ended:1"},
		}},
		{"a parked run cancelled is not told", []step{
			{msg: snap(st("r", run.StatusParked, nil))},
			{msg: ch(st("r", run.StatusCancelled, nil))},
			{flush: time.Second},
		}},
		{"run ending with its prompt up withdraws it", []step{
			{msg: snap(st("r", run.StatusAwaitingApproval, appr("a1"))), want: "send prompt:r:a1"},
			{msg: ch(st("r", run.StatusFailed, nil)), want: "withdraw prompt:r:a1"},
			{flush: time.Second, want: "send ended:1"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEngine()
			for i, s := range tc.steps {
				var ops []Op
				switch {
				case s.msg != nil:
					ops = e.Apply(*s.msg, t0)
				case s.focus != nil:
					ops = e.SetFocus(*s.focus)
				default:
					ops = e.Flush(t0.Add(s.flush))
				}
				// Withdraw order over a map is not fixed; sends are sorted by run.
				if got := opsString(ops); got != s.want {
					t.Fatalf("step %d: %q, want %q", i, got, s.want)
				}
			}
		})
	}
}

// TestCoalesce: ten runs ending within the window give one notification
// that counts them all.
func TestCoalesce(t *testing.T) {
	e := NewEngine()
	e.Apply(run.WatchMessage{Type: run.WatchSnapshotType}, t0)
	for i := range 10 {
		r := st(fmt.Sprint(i), run.StatusCompleted, nil)
		if i >= 7 {
			r.Status = run.StatusFailed
		}
		if ops := e.Apply(changed(r), t0.Add(time.Duration(i)*50*time.Millisecond)); len(ops) != 0 {
			t.Fatalf("ended run %d sent at once: %s", i, opsString(ops))
		}
	}
	due, ok := e.Due()
	if !ok || !due.Equal(t0.Add(CoalesceWindow)) {
		t.Fatalf("due %v %v", due, ok)
	}
	ops := e.Flush(due)
	if len(ops) != 1 || ops[0].Note.Summary != "7 finished, 3 failed" || ops[0].Note.Kind != KindFailed {
		t.Fatalf("ops %+v", ops)
	}
	if !strings.Contains(ops[0].Note.Body, "and 5 more") {
		t.Fatalf("body %q", ops[0].Note.Body)
	}
	if _, ok := e.Due(); ok {
		t.Fatal("nothing should be gathered after a flush")
	}
}

func TestSettingsSwitches(t *testing.T) {
	e := NewEngine()
	e.SetSettings(Settings{Failed: true})
	e.Apply(run.WatchMessage{Type: run.WatchSnapshotType}, t0)
	if ops := e.Apply(changed(st("r", run.StatusAwaitingApproval, appr("a1"))), t0); len(ops) != 0 {
		t.Fatalf("needs-you switched off but sent %s", opsString(ops))
	}
	e.Apply(changed(st("r", run.StatusCompleted, nil)), t0)
	e.Apply(changed(st("q", run.StatusFailed, nil)), t0)
	ops := e.Flush(t0.Add(time.Second))
	if len(ops) != 1 || ops[0].Note.Summary != "Failed — Task q" {
		t.Fatalf("ops %+v", ops)
	}
	e.SetSettings(Settings{NeedsYou: true, Finished: true, Failed: true, DND: true})
	e.Apply(changed(st("p", run.StatusAwaitingApproval, appr("x"))), t0)
	e.Apply(changed(st("p", run.StatusFailed, nil)), t0)
	if ops := e.Flush(t0.Add(time.Hour)); len(ops) != 0 {
		t.Fatalf("do not disturb but sent %s", opsString(ops))
	}
}

func TestPromptNote(t *testing.T) {
	r := st("r", run.StatusAwaitingApproval, appr("a1"))
	r.SessionTitle = "Fix\nthe\u202e build"
	r.Pending.Title = "Run `ls`"
	r.Pending.Command = "echo `id`"
	n := PromptNote(r)
	// The title's code span loses its backticks; the command is shown as
	// it will run.
	if n.Summary != "demo needs approval — Fix the build" || n.Body != "Run ls\necho `id`" || n.Key != "prompt:r:a1" {
		t.Fatalf("note %+v", n)
	}
	// Open is the body click: no second Open button.
	want := []Action{{ChoiceAction("a1", "allow_once"), "Allow once"}, {ChoiceAction("a1", "reject_once"), "Reject"}}
	if fmt.Sprint(n.Actions) != fmt.Sprint(want) {
		t.Fatalf("actions %v", n.Actions)
	}
	q := st("q", run.StatusAwaitingClarify, &run.PendingPrompt{Kind: run.PendingClarify, ID: "c1", Title: "Which `branch`?"})
	if n := PromptNote(q); n.Summary != "demo has a question — Task q" || n.Body != "Which branch?" || len(n.Actions) != 0 {
		t.Fatalf("question note %+v", n)
	}
	// An agent with a name of its own (an added one) is called by it.
	named := st("q", run.StatusAwaitingClarify, &run.PendingPrompt{Kind: run.PendingClarify, ID: "c1", Title: "Which branch?"})
	named.AgentName = "My ACP Agent"
	if n := PromptNote(named); n.Summary != "My ACP Agent has a question — Task q" {
		t.Fatalf("named agent's note %+v", n)
	}
	f := st("f", run.StatusFailed, nil)
	f.Error = "`git` exited 1"
	if n := EndedNote([]run.RunState{f}, 1); n.Body != "demo stopped with an error: git exited 1" || len(n.Actions) != 0 {
		t.Fatalf("ended note %+v", n)
	}
}

func TestChoiceActionRoundTrip(t *testing.T) {
	tests := []struct {
		approval, option string
	}{{"a1", "allow_once"}, {"x:y", "z:w"}, {"tool%3A1 ü", "reject"}}
	for _, tc := range tests {
		a, o, ok := ChoiceOf(ChoiceAction(tc.approval, tc.option))
		if !ok || a != tc.approval || o != tc.option {
			t.Errorf("%q %q: got %q %q %v", tc.approval, tc.option, a, o, ok)
		}
	}
	for _, bad := range []string{"choose:", "choose:allow_once", "choose::x", "choose:a:", "choose:%zz:x", "open", "default"} {
		if _, _, ok := ChoiceOf(bad); ok {
			t.Errorf("%q read as a choice", bad)
		}
	}
}

func TestQuotaNote(t *testing.T) {
	at := time.Date(2026, 11, 27, 15, 0, 0, 0, time.Local)
	r := st("r", run.StatusParked, nil)
	r.AgentName, r.ResumesAt = "Claude Code", at.UTC().Format(time.RFC3339)
	n := QuotaNote(r, QuotaParked)
	if n.Summary != "Waiting for quota — Task r" || n.Body != "Claude Code hit its rate limit; resumes at 15:00" || n.Kind != KindQuota {
		t.Errorf("parked: %+v", n)
	}
	r.ResumesAt = ""
	if n := QuotaNote(r, QuotaParked); n.Body != "Claude Code hit its rate limit" {
		t.Errorf("parked without a time: %+v", n)
	}
	if n := QuotaNote(r, QuotaResumed); n.Summary != "Resumed — Task r" || n.Key != QuotaKey("r") {
		t.Errorf("resumed: %+v", n)
	}
}
