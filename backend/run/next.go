package run

import "encoding/json"

// The run state machine (docs/ARCHITECTURE.md §Run state machine). Every
// place that needs a run's status after an event — the journal's derived
// run row, the shim's own view for controls, the frontend's fold (tested
// against testdata/transitions.json, written from the table in
// next_test.go) — takes it from Next, so they cannot disagree.

// State is the part of a run that events move: its status and the
// approval or clarify prompt waiting for an answer.
type State struct {
	Status            Status `json:"status"`
	PendingApprovalID string `json:"pending_approval_id,omitempty"`
	PendingClarifyID  string `json:"pending_clarify_id,omitempty"`
	// ResumesAt (RFC 3339) is when a parked run resumes by itself;
	// ParkAttempts how many times the run parked (docs/ARCHITECTURE.md
	// §Usage, parked runs).
	ResumesAt    string `json:"resumes_at,omitempty"`
	ParkAttempts int    `json:"park_attempts,omitempty"`
}

// MovesState reports whether an event of type t can change a run's State;
// callers on the hot path (token deltas) skip Next for the others.
func MovesState(t EventType) bool {
	switch t {
	case EventRunStarted, EventStatus, EventApprovalRequest, EventApprovalResolved,
		EventClarifyRequest, EventClarifyResolved, EventDone:
		return true
	}
	return false
}

// Next returns the state after an event of type t with payload p (the
// event's JSON payload) is applied to s. The rules:
//   - nothing moves a terminal run;
//   - run.started moves a queued, parked (resumed) or not yet known run
//     to running;
//   - status sets any non-terminal status it names (only done ends a run);
//     status parked also sets when the run resumes and its attempt (the
//     agent is gone: no prompt stays pending); any other status clears
//     the resume time;
//   - approval.requested / clarify.requested make the run wait for that
//     prompt; resolving the pending one returns it to running (resolving
//     another id changes nothing);
//   - while an approval waits, a second one leaves the older pending;
//     resolving the pending one moves to the resolution's next_pending
//     (the oldest still waiting) and stays awaiting approval, so the run
//     never reads running while the agent still waits;
//   - done ends the run with its payload's terminal status, completed when
//     the payload names none.
//
// Next never fails: an unreadable payload leaves the state as it was
// (payloads are validated when they are appended).
func Next(s State, t EventType, p json.RawMessage) State {
	if s.Status.Terminal() {
		return s
	}
	switch t {
	case EventRunStarted:
		if s.Status == "" || s.Status == StatusQueued || s.Status == StatusParked {
			s.Status, s.ResumesAt = StatusRunning, ""
		}
	case EventStatus:
		var v StatusChanged
		if json.Unmarshal(p, &v) == nil && v.Status.Valid() && !v.Status.Terminal() {
			s.Status, s.ResumesAt = v.Status, ""
			if v.Status == StatusParked {
				s.ResumesAt = v.ResumesAt
				s.ParkAttempts = max(s.ParkAttempts, v.Attempt)
				s.PendingApprovalID, s.PendingClarifyID = "", ""
			}
		}
	case EventApprovalRequest:
		var v ApprovalRequested
		if json.Unmarshal(p, &v) == nil && v.ApprovalID != "" {
			s.Status = StatusAwaitingApproval
			if s.PendingApprovalID == "" {
				s.PendingApprovalID = v.ApprovalID
			}
		}
	case EventApprovalResolved:
		var v ApprovalResolved
		if json.Unmarshal(p, &v) == nil && v.ApprovalID != "" && v.ApprovalID == s.PendingApprovalID {
			s.PendingApprovalID = v.NextPending
			if s.Status == StatusAwaitingApproval && v.NextPending == "" {
				s.Status = StatusRunning
			}
		}
	case EventClarifyRequest:
		var v ClarifyRequested
		if json.Unmarshal(p, &v) == nil && v.ClarifyID != "" {
			s.Status, s.PendingClarifyID = StatusAwaitingClarify, v.ClarifyID
		}
	case EventClarifyResolved:
		var v ClarifyResolved
		if json.Unmarshal(p, &v) == nil && v.ClarifyID != "" && v.ClarifyID == s.PendingClarifyID {
			s.PendingClarifyID = ""
			if s.Status == StatusAwaitingClarify {
				s.Status = StatusRunning
			}
		}
	case EventDone:
		var v Done
		_ = json.Unmarshal(p, &v)
		s.Status = StatusCompleted
		if v.Status.Terminal() {
			s.Status = v.Status
		}
		s.PendingApprovalID, s.PendingClarifyID, s.ResumesAt = "", "", ""
	}
	return s
}
