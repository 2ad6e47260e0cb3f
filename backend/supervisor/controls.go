package supervisor

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// Cancel stops a run: a queued run ends cancelled at once; a running one is
// cancelled by its shim (protocol cancel, then SIGTERM, then SIGKILL).
func (s *Supervisor) Cancel(ctx context.Context, runID string) (run.ControlResult, error) {
	return s.control(ctx, runID, control.Request{Op: control.OpCancel})
}

// ForceCancel is Cancel without the grace period ("Force stop"): the
// agent's group is killed at once; on a run already cancelling it cuts the
// grace short. The run still ends with one done{cancelled}.
func (s *Supervisor) ForceCancel(ctx context.Context, runID string) (run.ControlResult, error) {
	return s.control(ctx, runID, control.Request{Op: control.OpCancel, Force: true})
}

// Approve answers a pending approval with one of its option ids (or kinds).
func (s *Supervisor) Approve(ctx context.Context, runID, approvalID, choice string) (run.ControlResult, error) {
	return s.control(ctx, runID, control.Request{Op: control.OpApproval, ApprovalID: approvalID, Choice: choice,
		By: run.AnsweredBy(ctx)})
}

// Clarify answers a pending clarify prompt.
func (s *Supervisor) Clarify(ctx context.Context, runID, clarifyID, answer string) (run.ControlResult, error) {
	return s.control(ctx, runID, control.Request{Op: control.OpClarify, ClarifyID: clarifyID, Answer: answer})
}

// SetModel switches the agent's model for the rest of the session.
func (s *Supervisor) SetModel(ctx context.Context, runID, model string) (run.ControlResult, error) {
	return s.control(ctx, runID, control.Request{Op: control.OpModel, Model: model})
}

// SetConfig sets one of the agent's session settings (mode, thought
// level, a switch) for the rest of the session.
func (s *Supervisor) SetConfig(ctx context.Context, runID, id, value string) (run.ControlResult, error) {
	return s.control(ctx, runID, control.Request{Op: control.OpConfig, ConfigID: id, Value: value})
}

// Queue sends a follow-up in the run's session: a new turn whose run starts
// when this one ends (docs/ARCHITECTURE.md §Domain). The result names the new run.
func (s *Supervisor) Queue(ctx context.Context, runID, message, clientRequestID string) (run.ControlResult, error) {
	r, err := s.getRun(ctx, runID)
	if err != nil {
		return run.ControlResult{}, err
	}
	res, err := s.Start(ctx, run.StartRequest{SessionID: r.SessionID, Message: message, ClientRequestID: clientRequestID})
	if err != nil {
		return run.ControlResult{}, err
	}
	return run.ControlResult{Accepted: true, Status: run.ControlAccepted, RunID: res.RunID}, nil
}

func (s *Supervisor) getRun(ctx context.Context, runID string) (run.Run, error) {
	r, err := s.cfg.Store.GetRun(ctx, runID)
	if err != nil {
		return run.Run{}, s.storeErr("run", runID, err)
	}
	return r, nil
}

func notActive(msg string) run.ControlResult {
	return run.ControlResult{Status: run.ControlNotActive, Message: msg}
}

// control routes one control to the run's shim. It never waits on a
// missing or stale target for longer than the control timeout, and never
// answers from anywhere but the shim that owns the run.
func (s *Supervisor) control(ctx context.Context, runID string, req control.Request) (run.ControlResult, error) {
	if s.isClosed() {
		return run.ControlResult{}, ErrClosed
	}
	r, err := s.getRun(ctx, runID)
	if err != nil {
		return run.ControlResult{}, err
	}
	if r.Terminal || r.Status.Terminal() {
		return notActive("the run has already ended"), nil
	}
	if r.Status == run.StatusParked && req.Op == control.OpCancel {
		// Its shim may still be on its way out after parking (it answers
		// no control then): wait for it to be let go, briefly — a shim
		// resuming the run stays, and takes the cancel below.
		select {
		case <-s.untracked(runID):
		case <-time.After(s.cfg.ControlTimeout):
		case <-ctx.Done():
		}
		if cur, err := s.getRun(ctx, runID); err == nil {
			r = cur
		}
		if r.Terminal {
			return notActive("the run has already ended"), nil
		}
	}
	t := s.lookup(runID)
	if t == nil {
		// A parked run has no shim either (docs/ARCHITECTURE.md §Usage,
		// parked runs): giving up on it is a cancel like a queued run's.
		if r.Status == run.StatusQueued || r.Status == run.StatusParked {
			if req.Op == control.OpCancel {
				return s.cancelQueued(ctx, r, req.Force)
			}
			if r.Status == run.StatusParked {
				return notActive("the run is waiting for its quota to reset"), nil
			}
			return notActive("the run has not started yet"), nil
		}
		return notActive("the run's process is not connected"), nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.ControlTimeout)
	defer cancel()
	boot, err := t.bootstrap(ctx)
	if err != nil {
		return notActive("the run's process is not ready"), nil
	}
	resp, err := control.Call(ctx, boot, req)
	if err != nil || resp.Result == nil {
		s.log.Warn("control not delivered", "run", runID, "op", req.Op, "err", err)
		if cur, gerr := s.cfg.Store.GetRun(ctx, runID); gerr == nil && cur.Terminal {
			return notActive("the run has already ended"), nil
		}
		if errors.Is(err, control.ErrRejected) {
			return run.ControlResult{}, err
		}
		return notActive("the run's process did not answer"), nil
	}
	return *resp.Result, nil
}

// cancelQueued ends a run that has no shim yet as cancelled.
func (s *Supervisor) cancelQueued(ctx context.Context, r run.Run, force bool) (run.ControlResult, error) {
	s.schedMu.Lock()
	if s.lookup(r.ID) != nil { // launched meanwhile: its shim cancels it
		s.schedMu.Unlock()
		return s.control(ctx, r.ID, control.Request{Op: control.OpCancel, Force: force})
	}
	ev, ok := s.endWithoutShim(ctx, r.ID, run.StatusCancelled, "", "")
	s.schedMu.Unlock()
	if !ok {
		return notActive("the run could not be cancelled now; it is ending or starting"), nil
	}
	return run.ControlResult{Accepted: true, Status: run.ControlAccepted, EventID: ev.EventID}, nil
}

// MaxLogTail is how much of a run's log RunLog returns: its end, where the
// reason a run failed is.
const MaxLogTail = 64 << 10

// RunLog returns the end of a run's log (its shim.log: the shim's and the
// agent's diagnostics), "" when it has none. The path is built from the
// stored run's id under the data dir, never from the caller's text.
func (s *Supervisor) RunLog(ctx context.Context, runID string) (string, error) {
	r, err := s.getRun(ctx, runID)
	if err != nil {
		return "", err
	}
	p := s.logPath(r.ID)
	if rel, err := filepath.Rel(s.cfg.DataDir, p); err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("supervisor: run log outside the data dir: %q", r.ID)
	}
	return control.TailFile(p, MaxLogTail), nil
}
