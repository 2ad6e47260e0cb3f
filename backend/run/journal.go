package run

import (
	"context"
	"time"
)

// The journal's contract: the request and result types every consumer of
// the journal shares, and the Writer it hands out. backend/journal's Store
// takes and returns exactly these, so each consumer declares the subset of
// methods it uses as its own small interface and the Store satisfies it
// with no adapter in between (docs/ARCHITECTURE.md §Journal).

// Writer appends one run's events; the journal assigns their seqs.
type Writer interface {
	// Append enqueues an event for group commit.
	Append(t EventType, payload any) (Event, error)
	// AppendSync commits an event before returning.
	AppendSync(ctx context.Context, t EventType, payload any) (Event, error)
	Flush(ctx context.Context) error
	Close() error
}

// SubmitRequest is one user message to a session.
type SubmitRequest struct {
	SessionID       string
	Message         string
	ClientRequestID string
	// Agent and Model default to the session's.
	Agent       string
	Model       string
	Attachments []string
}

// Submission is what a submit recorded. Existing is true when the
// client_request_id was seen before and nothing new was written.
type Submission struct {
	Turn     Turn
	Run      Run
	Existing bool
}

// RunFilter selects runs; zero fields do not filter.
type RunFilter struct {
	Active    bool // only runs without their done
	ProjectID string
	SessionID string
	Limit     int // the journal's default (200) when zero
}

// SessionUpdate changes some of a session's fields; nil fields stay as they
// are. It is also the body of a session PATCH.
type SessionUpdate struct {
	Title    *string `json:"title,omitempty"`
	Archived *bool   `json:"archived,omitempty"`
	// Model is the model the session's next run starts on ("" = the
	// agent's default).
	Model *string `json:"model,omitempty"`
	// Config merges choices into the session's kept settings (option id →
	// value); a value "" forgets that choice (back to the agent's default).
	Config map[string]string `json:"config,omitempty"`
	// NativeSessionID is maintenance (the agent's resume id, set by the
	// shim): it does not move updated_at and no client may set it.
	NativeSessionID *string `json:"-"`
}

// SearchHit is one match across messages and tool output. Kind is user,
// assistant, reasoning or tool.
type SearchHit struct {
	Kind      string    `json:"kind"`
	SessionID string    `json:"session_id"`
	RunID     string    `json:"run_id,omitempty"`
	MessageID string    `json:"message_id,omitempty"`
	Seq       int64     `json:"seq,omitempty"`
	Snippet   string    `json:"snippet"`
	CreatedAt time.Time `json:"created_at"`
}

// AuditItem is one run in the audit.
type AuditItem struct {
	RunID     string    `json:"run_id"`
	SessionID string    `json:"session_id"`
	TurnID    string    `json:"turn_id"`
	Status    Status    `json:"status"`
	TurnState TurnState `json:"turn_state"`
	// LastSeq is the highest committed seq of the run.
	LastSeq int64  `json:"last_seq"`
	Error   string `json:"error,omitempty"`
	// Problem says what is inconsistent (Malformed items only).
	Problem string `json:"problem,omitempty"`
}

// Audit is the recovery audit (GET /api/audit).
type Audit struct {
	// Pending: runs without their done (live, queued, or awaiting recovery).
	Pending []AuditItem `json:"pending"`
	// Interrupted: runs that ended interrupted, newest first (up to 100).
	Interrupted []AuditItem `json:"interrupted"`
	// Malformed: inconsistencies that should never exist.
	Malformed []AuditItem `json:"malformed"`
}
