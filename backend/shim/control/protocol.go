package control

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Op names a control request. Every request is one JSON line carrying the
// run's token; every answer is one JSON line with the same id.
type Op string

const (
	// OpSubscribe turns the connection into an event stream: the shim
	// answers with Subscribed{LastSeq} and then pushes every event with
	// seq > max(AfterSeq, LastSeq) as it commits. Events in
	// (AfterSeq, LastSeq] are already in the journal; the client reads them
	// there (docs/ARCHITECTURE.md §The watch bus).
	OpSubscribe Op = "subscribe"
	OpCancel    Op = "cancel"
	OpApproval  Op = "approval"
	OpClarify   Op = "clarify"
	OpModel     Op = "model"
	OpConfig    Op = "config" // set one of the agent's session settings
	OpStatus    Op = "status"
	// OpNextRun hands an idle warm shim its session's next run (Spec): it
	// answers with the run's Bootstrap once it serves it, or CodeNotWarm.
	OpNextRun Op = "next_run"
	// OpStop asks an idle warm shim to close its agent and exit; a shim
	// serving a run answers CodeNotWarm and goes on.
	OpStop Op = "stop"
)

// Request is one control request.
type Request struct {
	ID    int64  `json:"id"`
	Token string `json:"token"`
	Op    Op     `json:"op"`
	// RunID names the run a request is about; a warm shim serves several
	// runs in turn on one socket, and a request about an earlier one must
	// not reach the current one. Empty: the current run.
	RunID      string `json:"run_id,omitempty"`
	AfterSeq   int64  `json:"after_seq,omitempty"`
	ApprovalID string `json:"approval_id,omitempty"`
	Choice     string `json:"choice,omitempty"`
	// By says where an approval was answered (run.AnsweredBy*); "" is the user.
	By        string `json:"by,omitempty"`
	ClarifyID string `json:"clarify_id,omitempty"`
	Answer    string `json:"answer,omitempty"`
	Model     string `json:"model,omitempty"`
	// ConfigID and Value (OpConfig) name a session setting and its new value.
	ConfigID string `json:"config_id,omitempty"`
	Value    string `json:"value,omitempty"`
	Spec     *Spec  `json:"spec,omitempty"` // OpNextRun
	// Force (OpCancel) kills the agent at once, skipping the grace period
	// a stubborn agent would otherwise get; sent again on a run already
	// cancelling, it cuts that grace short.
	Force bool `json:"force,omitempty"`
}

// Error codes in Response.Code.
const (
	CodeUnauthorized = "unauthorized"
	CodeBadRequest   = "bad_request"
	CodeInternal     = "internal"
	// CodeDropped ends a subscription whose reader fell behind; it resumes
	// from its last seq.
	CodeDropped = "dropped"
	// CodeEnded ends a subscription because the run is over and the shim
	// is exiting.
	CodeEnded = "ended"
	// CodeNotWarm refuses OpNextRun or OpStop: the shim is not idle and
	// warm (it serves a run, is exiting, or the run does not fit its agent).
	CodeNotWarm = "not_warm"
)

// Response is one line from the shim: an answer to a request (ID set) or,
// on a subscribed connection, one pushed event.
type Response struct {
	ID         int64              `json:"id,omitempty"`
	Result     *run.ControlResult `json:"result,omitempty"`
	State      *State             `json:"state,omitempty"`
	Subscribed *Subscribed        `json:"subscribed,omitempty"`
	Event      *run.Event         `json:"event,omitempty"`
	Bootstrap  *Bootstrap         `json:"bootstrap,omitempty"` // OpNextRun
	Code       string             `json:"code,omitempty"`
	Error      string             `json:"error,omitempty"`
}

// Subscribed acknowledges a subscription.
type Subscribed struct {
	// LastSeq is the last seq committed before the subscription started;
	// every later event will be pushed.
	LastSeq int64 `json:"last_seq"`
}

// State is the shim's own view of its run (op status).
type State struct {
	RunID             string     `json:"run_id"`
	Status            run.Status `json:"status"`
	LastSeq           int64      `json:"last_seq"`
	AgentPid          int        `json:"agent_pid,omitempty"`
	PendingApprovalID string     `json:"pending_approval_id,omitempty"`
	PendingClarifyID  string     `json:"pending_clarify_id,omitempty"`
	Subscribers       int        `json:"subscribers"`
}

// Errors of ParseRequest.
var (
	ErrMalformed = errors.New("control: malformed request")
	ErrUnknownOp = errors.New("control: unknown op")
)

// ParseRequest decodes one request line. A well-formed request with an op
// this build does not know is returned with ErrUnknownOp, so the caller can
// still check its token before answering.
func ParseRequest(line []byte) (Request, error) {
	var r Request
	if err := json.Unmarshal(line, &r); err != nil {
		return Request{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	switch r.Op {
	case OpSubscribe, OpCancel, OpApproval, OpClarify, OpModel, OpConfig, OpStatus, OpNextRun, OpStop:
		return r, nil
	}
	return r, fmt.Errorf("%w %q", ErrUnknownOp, r.Op)
}
