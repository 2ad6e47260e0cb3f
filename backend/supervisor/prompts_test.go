package supervisor_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
)

// waitPending waits until the run row shows a pending approval or clarify
// prompt and returns its id.
func (e *env) waitPending(id string, approval bool) string {
	e.t.Helper()
	var pid string
	e.waitFor("a pending prompt", 30*time.Second, func() bool {
		r := e.getRun(id)
		pid = r.PendingClarifyID
		if approval {
			pid = r.PendingApprovalID
		}
		return pid != ""
	})
	return pid
}

// Approval and clarify: answered once → resolved event; again → not-active
// (nothing resumed twice); a different answer → conflict; unknown id →
// not-active; optionally answered after a restart of the supervisor.
func TestPrompts(t *testing.T) {
	tests := []struct {
		name     string
		approval bool
		restart  bool
	}{
		{name: "approval", approval: true},
		{name: "clarify"},
		{name: "approval after a supervisor restart", approval: true, restart: true},
		{name: "clarify after a supervisor restart", restart: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			ctx := context.Background()
			msg, answer, other, wantText := "/scenario clarify", "green", "blue", "You answered: green"
			answerFn := func(s *supervisor.Supervisor, runID, id, a string) (run.ControlResult, error) {
				return s.Clarify(ctx, runID, id, a)
			}
			if tc.approval {
				msg, answer, other, wantText = "/scenario approval", "allow-once", "reject-once", "Permission granted"
				answerFn = func(s *supervisor.Supervisor, runID, id, a string) (run.ControlResult, error) {
					return s.Approve(ctx, runID, id, a)
				}
			}
			res := e.start(e.session.ID, msg)
			id := e.waitPending(res.RunID, tc.approval)
			if tc.restart {
				// Main goes away without stopping anything, comes back.
				e.sup.Close()
				e.open()
			}
			if cr, err := answerFn(e.sup, res.RunID, "no-such-id", answer); err != nil || cr.Status != run.ControlNotActive {
				t.Fatalf("unknown id: %+v, %v", cr, err)
			}
			cr, err := answerFn(e.sup, res.RunID, id, answer)
			if err != nil || cr.Status != run.ControlAccepted || cr.EventID == "" {
				t.Fatalf("first answer: %+v, %v", cr, err)
			}
			if cr, err := answerFn(e.sup, res.RunID, id, answer); err != nil || (cr.Status != run.ControlNotActive) {
				t.Fatalf("same answer again: %+v, %v; want not-active", cr, err)
			}
			if cr, err := answerFn(e.sup, res.RunID, id, other); err != nil || (cr.Status != run.ControlConflict && cr.Status != run.ControlNotActive) {
				t.Fatalf("different answer: %+v, %v; want conflict (or not-active once the run ended)", cr, err)
			}
			evs := e.watchAll(e.sup, res.RunID, 0)
			checkSeqs(t, evs, 0)
			if d := doneOf(t, evs); d.Status != run.StatusCompleted {
				t.Fatalf("done %+v", d)
			}
			resolved := run.EventClarifyResolved
			if tc.approval {
				resolved = run.EventApprovalResolved
			}
			if n := countType(evs, resolved); n != 1 {
				t.Fatalf("%d %s events, want 1", n, resolved)
			}
			if got := text(evs, run.EventTokenDelta); !strings.Contains(got, wantText) || strings.Count(got, wantText) != 1 {
				t.Fatalf("the agent did not get the answer exactly once: %q", got)
			}
			// The resolution was committed before the agent resumed.
			var resolvedSeq, afterSeq int64
			for _, ev := range evs {
				if ev.Type == resolved {
					resolvedSeq = ev.Seq
				}
				if ev.Type == run.EventTokenDelta && resolvedSeq > 0 && afterSeq == 0 {
					afterSeq = ev.Seq
				}
			}
			if afterSeq == 0 || afterSeq < resolvedSeq {
				t.Fatalf("resolution at seq %d, agent's next text at %d", resolvedSeq, afterSeq)
			}
			if cr, _ := answerFn(e.sup, res.RunID, id, answer); cr.Status != run.ControlNotActive {
				t.Fatalf("answer after the end: %+v", cr)
			}
		})
	}
}

func TestControlsOnUnknownRun(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.sup.Cancel(ctx, "run_nope"); !errorsIs(err, supervisor.ErrNotFound) {
		t.Fatalf("cancel unknown run: %v", err)
	}
	if _, err := e.sup.Watch(ctx, "run_nope", 0); !errorsIs(err, supervisor.ErrNotFound) {
		t.Fatalf("watch unknown run: %v", err)
	}
	if _, err := e.sup.Start(ctx, run.StartRequest{SessionID: "ses_nope", Message: "x"}); !errorsIs(err, supervisor.ErrNotFound) {
		t.Fatalf("start in unknown session: %v", err)
	}
}

func TestModelSwitch(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res := e.start(e.session.ID, "/scenario slow")
	e.waitFor("a token", 30*time.Second, func() bool { return countType(e.events(res.RunID), run.EventTokenDelta) > 0 })
	cr, err := e.sup.SetModel(ctx, res.RunID, "demo-large")
	if err != nil {
		t.Fatal(err)
	}
	if cr.Status != run.ControlAccepted && cr.Status != run.ControlUnsupported {
		t.Fatalf("set model: %+v", cr)
	}
	if cr.Status == run.ControlAccepted && !strings.Contains(string(lastOf(e.events(res.RunID), run.EventModelUpdated).Payload), `"demo-large"`) {
		t.Fatal("model.updated not recorded")
	}
	if cr, _ := e.sup.Cancel(ctx, res.RunID); !cr.Accepted {
		t.Fatalf("cancel: %+v", cr)
	}
	e.waitTerminal(res.RunID)
}

// Shown = approved, end to end through the real shim and ACP adapter: a
// permission request that names only the toolCallId of a call announced
// before it (Mistral Vibe) is journaled with that call's title and
// command; "allow" answers it; a choice that matches nothing is invalid
// and leaves it pending.
func TestVibeShapedApprovalShowsItsCommand(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res := e.start(e.session.ID, "/scenario vibe-permission")
	id := e.waitPending(res.RunID, true)
	if cr, err := e.sup.Approve(ctx, res.RunID, id, "maybe"); err != nil || cr.Status != run.ControlInvalid || !strings.Contains(cr.Message, "allow-once (Allow), reject-once (Reject)") {
		t.Fatalf("unmatched choice: %+v, %v", cr, err)
	}
	if cr, err := e.sup.Approve(ctx, res.RunID, id, "allow"); err != nil || cr.Status != run.ControlAccepted {
		t.Fatalf("allow: %+v, %v", cr, err)
	}
	evs := e.watchAll(e.sup, res.RunID, 0)
	if d := doneOf(t, evs); d.Status != run.StatusCompleted {
		t.Fatalf("done %+v", d)
	}
	var ar run.ApprovalRequested
	for _, ev := range evs {
		if ev.Type == run.EventApprovalRequest {
			if err := json.Unmarshal(ev.Payload, &ar); err != nil {
				t.Fatal(err)
			}
		}
	}
	if ar.ToolCallID != "vibe-1" || ar.Title != "bash" || ar.Kind != "execute" || ar.Command != "echo hello > hello.txt && echo x" || ar.Unexplained {
		t.Fatalf("approval.requested = %+v; want the announced call's title and command", ar)
	}
	if got := text(evs, run.EventTokenDelta); !strings.Contains(got, "Permission granted (allow-once)") {
		t.Fatalf("the agent did not get the first allow option: %q", got)
	}
}

// A session setting set while the run works goes to the agent and is
// journaled with the agent's whole new set of settings, by name.
func TestSetConfigDuringARun(t *testing.T) {
	t.Setenv(fakeagent.ConfigEnv, fakeagent.ConfigOptions)
	e := newEnv(t)
	ctx := context.Background()
	res := e.start(e.session.ID, "/scenario approval")
	id := e.waitPending(res.RunID, true)
	if cr, err := e.sup.SetConfig(ctx, res.RunID, "reasoning_effort", "ludicrous"); err != nil || cr.Status != run.ControlInvalid {
		t.Fatalf("a value not offered: %+v, %v", cr, err)
	}
	if cr, err := e.sup.SetConfig(ctx, res.RunID, "reasoning_effort", "high"); err != nil || cr.Status != run.ControlAccepted {
		t.Fatalf("set: %+v, %v", cr, err)
	}
	if cr, err := e.sup.Approve(ctx, res.RunID, id, "allow"); err != nil || cr.Status != run.ControlAccepted {
		t.Fatalf("allow: %+v, %v", cr, err)
	}
	evs := e.watchAll(e.sup, res.RunID, 0)
	var last run.ConfigUpdated
	for _, ev := range evs {
		if ev.Type == run.EventConfigUpdated {
			if err := json.Unmarshal(ev.Payload, &last); err != nil {
				t.Fatal(err)
			}
		}
	}
	var got []string
	for _, o := range last.Options {
		got = append(got, o.Name+"="+o.Current)
	}
	if strings.Join(got, ", ") != "Model=demo-small, Mode=build, Reasoning effort=high, Allow all tools=false" {
		t.Fatalf("last config.updated: %v", got)
	}
}
