package shim

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// An agent that never answers a control call (a hung ACP agent on
// session/set_model, a full stdin pipe for a permission answer) must not
// hold up Stop: cancel is answered and the run ends with one done.
func TestCancelNotBlockedByStuckAgentCall(t *testing.T) {
	cases := []struct {
		name string
		// stick makes c's control call say it entered the agent, then
		// block until release is closed.
		stick func(c *fakeConn, entered chan<- struct{}, release <-chan struct{})
		// call is the control left hanging in the agent.
		call control.Request
	}{
		{
			name: "set model",
			stick: func(c *fakeConn, entered chan<- struct{}, release <-chan struct{}) {
				c.setModel = func(context.Context, string) error { entered <- struct{}{}; <-release; return nil }
			},
			call: control.Request{Op: control.OpModel, Model: "m2"},
		},
		{
			name: "approval answer",
			stick: func(c *fakeConn, entered chan<- struct{}, release <-chan struct{}) {
				c.respondApproval = func(context.Context, string, string) error { entered <- struct{}{}; <-release; return nil }
			},
			call: control.Request{Op: control.OpApproval, ApprovalID: "a1", Choice: "yes"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			stop := make(chan struct{})
			var stopOnce atomic.Bool
			c := &fakeConn{
				turn: func(ctx context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
					emit.Emit(run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "a1", Options: []run.ApprovalOption{{ID: "yes", Kind: "allow_once"}}})
					<-stop
					return adapter.TurnResult{Cancelled: true}
				},
				cancel: func(context.Context) error {
					if stopOnce.CompareAndSwap(false, true) {
						close(stop)
					}
					return nil
				},
			}
			entered := make(chan struct{}, 1)
			tc.stick(c, entered, release)
			h := startHarness(t, connAdapter(adapter.Capabilities{Approvals: true}, c), nil)
			waitUntil(t, "the approval", func() bool { return h.j.has(run.EventApprovalRequest) })

			go h.r.handle(context.Background(), tc.call) // hangs in the agent
			// The call is stuck in the agent, holding whatever it holds.
			select {
			case <-entered:
			case <-time.After(10 * time.Second):
				t.Fatal("the control never reached the agent")
			}

			got := make(chan run.ControlResult, 1)
			go func() { got <- h.control(control.Request{Op: control.OpCancel}) }()
			select {
			case res := <-got:
				if res.Status != run.ControlAccepted {
					t.Fatalf("cancel: %+v", res)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("cancel is stuck behind a control the agent never answered")
			}
			h.wait()
			if d := h.done(); d.Status != run.StatusCancelled {
				t.Fatalf("done %+v", d)
			}
		})
	}
}

// A resolution that cannot be recorded (full disk) must not leave the
// agent waiting forever on an answer nobody will send: the run ends failed
// with the journal's reason, with one done.
func TestResolutionJournalFailureEndsRun(t *testing.T) {
	stop := make(chan struct{})
	var stopOnce atomic.Bool
	j := &memJournal{}
	var failed atomic.Bool
	j.fail = func(t run.EventType, sync bool) error {
		if t == run.EventApprovalResolved && failed.CompareAndSwap(false, true) {
			return ErrDiskFull
		}
		return nil
	}
	c := &fakeConn{
		turn: func(ctx context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
			emit.Emit(run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "a1", Options: []run.ApprovalOption{{ID: "yes"}}})
			<-stop // the agent waits for the answer (or a cancel)
			return adapter.TurnResult{Cancelled: true}
		},
		cancel: func(context.Context) error {
			if stopOnce.CompareAndSwap(false, true) {
				close(stop)
			}
			return nil
		},
		respondApproval: func(context.Context, string, string) error {
			t.Error("the agent was told an answer that was not recorded")
			return nil
		},
	}
	h := startHarness(t, connAdapter(adapter.Capabilities{Approvals: true}, c), j)
	waitUntil(t, "the approval", func() bool { return j.has(run.EventApprovalRequest) })
	resp := h.r.handle(context.Background(), control.Request{Op: control.OpApproval, ApprovalID: "a1", Choice: "yes"})
	if resp.Result != nil && resp.Result.Accepted {
		t.Fatalf("accepted without a committed resolution: %+v", resp)
	}
	h.wait()
	if d := h.done(); d.Status != run.StatusFailed {
		t.Fatalf("done %+v, want failed", d)
	}
}
