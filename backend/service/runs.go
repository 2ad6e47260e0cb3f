package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/redact"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Runs: start (idempotent), read, list, event pages and controls.

// StartRun submits a user message: a new turn and run. The same
// client_request_id twice gives the same run; with a different body, a
// conflict.
func (s *Service) StartRun(ctx context.Context, req run.StartRequest) (run.StartResult, error) {
	if req.SessionID == "" {
		return run.StartResult{}, badRequest("session_id is required")
	}
	if err := checkMessage(req.Message); err != nil {
		return run.StartResult{}, err
	}
	if err := checkAttachments(req.Attachments); err != nil {
		return run.StartResult{}, err
	}
	if req.ClientRequestID == "" {
		req.ClientRequestID = NewRequestID()
	}
	ses, err := s.store.GetSession(ctx, req.SessionID)
	if err != nil {
		return run.StartResult{}, s.classify(ctx, "get session", "session", err)
	}
	if ses.ImportedFrom != "" {
		return run.StartResult{}, &Error{Code: CodeConflict, Message: "this session was imported and is read-only: start a new session to go on"}
	}
	if err := s.checkRunnableProject(ctx, ses.ProjectID); err != nil {
		return run.StartResult{}, err
	}
	req.AgentMessage = s.agentMessage(ctx, ses, req.Message)
	req.Fork = s.forkOf(ctx, ses)
	res, err := s.runner.Start(ctx, req)
	if err == nil {
		s.runCreated(res.RunID)
	}
	return res, s.classify(ctx, "start run", "session", err)
}

func checkMessage(m string) error {
	if strings.TrimSpace(m) == "" {
		return badRequest("message must not be empty")
	}
	if len(m) > MaxMessageBytes {
		return &Error{Code: CodeTooLarge, Message: "message is longer than 256 KiB; attach a file instead"}
	}
	if !utf8.ValidString(m) {
		return badRequest("message must be valid UTF-8")
	}
	return nil
}

// NewRequestID returns a random client_request_id.
func NewRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

// Run returns a run's status, last seq and pending controls.
func (s *Service) Run(ctx context.Context, id string) (run.Run, error) {
	r, err := s.store.GetRun(ctx, id)
	return r, s.classify(ctx, "get run", "run", err)
}

// Runs lists runs; Active selects the non-terminal ones.
func (s *Service) Runs(ctx context.Context, f run.RunFilter) ([]run.Run, error) {
	if f.Limit <= 0 || f.Limit > MaxPage {
		f.Limit = DefaultPage
	}
	rs, err := s.store.ListRuns(ctx, f)
	return nonNil(rs), s.classify(ctx, "list runs", "run", err)
}

// EventPage is one page of a run's events after a cursor.
type EventPage struct {
	Events []run.Event `json:"events"`
	// LastSeq and Terminal describe the run when the page was read: more
	// pages exist while the page's last seq is below LastSeq.
	LastSeq  int64 `json:"last_seq"`
	Terminal bool  `json:"terminal"`
	// More says events after this page are already stored.
	More bool `json:"more"`
}

// Events returns up to limit events with seq > after.
func (s *Service) Events(ctx context.Context, runID string, after int64, limit int) (EventPage, error) {
	if limit <= 0 {
		limit = DefaultPage
	}
	limit = min(limit, MaxPage)
	after = max(after, 0)
	evs, err := s.runner.Events(ctx, runID, after, limit)
	if err != nil {
		return EventPage{}, s.classify(ctx, "read events", "run", err)
	}
	// Read the run after the page so LastSeq ≥ the page's last seq.
	r, err := s.store.GetRun(ctx, runID)
	if err != nil {
		return EventPage{}, s.classify(ctx, "get run", "run", err)
	}
	last := after
	if len(evs) > 0 {
		last = evs[len(evs)-1].Seq
	}
	return EventPage{Events: nonNil(evs), LastSeq: r.LastSeq, Terminal: r.Terminal, More: last < r.LastSeq}, nil
}

// --- controls ---

// control runs a control on an existing run: unknown run → not found; a
// known run always gets the runner's ControlResult.
func (s *Service) control(ctx context.Context, op, runID string, f func() (run.ControlResult, error)) (run.ControlResult, error) {
	if _, err := s.store.GetRun(ctx, runID); err != nil {
		return run.ControlResult{}, s.classify(ctx, "get run", "run", err)
	}
	res, err := f()
	return res, s.classify(ctx, op, "run", err)
}

// Cancel stops a run. Only Cancel stops a run: closing a watcher never does.
func (s *Service) Cancel(ctx context.Context, runID string) (run.ControlResult, error) {
	return s.control(ctx, "cancel", runID, func() (run.ControlResult, error) { return s.runner.Cancel(ctx, runID) })
}

// ForceCancel stops a run at once, also one already cancelling. A Runner
// without agent processes to kill cancels as usual.
func (s *Service) ForceCancel(ctx context.Context, runID string) (run.ControlResult, error) {
	return s.control(ctx, "cancel", runID, func() (run.ControlResult, error) { return s.runner.ForceCancel(ctx, runID) })
}

// Resume starts a parked run now instead of at its quota's reset.
func (s *Service) Resume(ctx context.Context, runID string) (run.ControlResult, error) {
	return s.control(ctx, "resume", runID, func() (run.ControlResult, error) { return s.runner.Resume(ctx, runID) })
}

// RunLog is the end of a run's log ("Open log" on an error), secrets
// masked; "" when the runner keeps none.
func (s *Service) RunLog(ctx context.Context, runID string) (RunLogTail, error) {
	if _, err := s.store.GetRun(ctx, runID); err != nil {
		return RunLogTail{}, s.classify(ctx, "get run", "run", err)
	}
	text, err := s.runner.RunLog(ctx, runID)
	if err != nil {
		return RunLogTail{}, s.classify(ctx, "read run log", "run", err)
	}
	return RunLogTail{RunID: runID, Log: redact.String(text)}, nil
}

// RunLogTail is GET /api/runs/{id}/log.
type RunLogTail struct {
	RunID string `json:"run_id"`
	// Log is the end of the run's log (at most 64 KiB), starting at a
	// whole line.
	Log string `json:"log"`
}

// Approve answers a pending approval with one of its option ids.
func (s *Service) Approve(ctx context.Context, runID, approvalID, choice string) (run.ControlResult, error) {
	if choice == "" {
		return run.ControlResult{}, badRequest("choice is required")
	}
	return s.control(ctx, "approve", runID, func() (run.ControlResult, error) {
		return s.runner.Approve(ctx, runID, approvalID, choice)
	})
}

// Clarify answers a pending clarify prompt.
func (s *Service) Clarify(ctx context.Context, runID, clarifyID, answer string) (run.ControlResult, error) {
	if len(answer) > MaxMessageBytes || !utf8.ValidString(answer) {
		return run.ControlResult{}, badRequest("answer must be valid text of at most 256 KiB")
	}
	return s.control(ctx, "clarify", runID, func() (run.ControlResult, error) {
		return s.runner.Clarify(ctx, runID, clarifyID, answer)
	})
}

// QueueRequest is POST /api/runs/{id}/queue.
type QueueRequest struct {
	Message         string `json:"message"`
	ClientRequestID string `json:"client_request_id"`
}

// Queue adds a follow-up that runs when this run ends.
func (s *Service) Queue(ctx context.Context, runID string, req QueueRequest) (run.ControlResult, error) {
	if err := checkMessage(req.Message); err != nil {
		return run.ControlResult{}, err
	}
	if req.ClientRequestID == "" {
		req.ClientRequestID = NewRequestID()
	}
	if r, err := s.store.GetRun(ctx, runID); err == nil {
		if err := s.checkRunnableProject(ctx, r.ProjectID); err != nil {
			return run.ControlResult{}, err
		}
	}
	return s.control(ctx, "queue", runID, func() (run.ControlResult, error) {
		res, err := s.runner.Queue(ctx, runID, req.Message, req.ClientRequestID)
		if err == nil && res.Accepted && res.RunID != "" {
			s.runCreated(res.RunID)
		}
		return res, err
	})
}

// SetConfig sets one of the agent's session settings (§Session config
// options) through the run's agent.
func (s *Service) SetConfig(ctx context.Context, runID, id, value string) (run.ControlResult, error) {
	id = strings.TrimSpace(id)
	if id == "" || len(id) > MaxNameBytes || len(value) > MaxNameBytes {
		return run.ControlResult{}, badRequest("option must name one of the agent's settings")
	}
	return s.control(ctx, "set config", runID, func() (run.ControlResult, error) {
		return s.runner.SetConfig(ctx, runID, id, value)
	})
}

// SetModel switches the model for the run's session's later turns.
func (s *Service) SetModel(ctx context.Context, runID, model string) (run.ControlResult, error) {
	model = strings.TrimSpace(model)
	if model == "" || len(model) > MaxNameBytes {
		return run.ControlResult{}, badRequest("model must be a non-empty name")
	}
	return s.control(ctx, "set model", runID, func() (run.ControlResult, error) {
		return s.runner.SetModel(ctx, runID, model)
	})
}
