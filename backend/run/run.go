// Package run holds Hermes Desk's domain types: projects, sessions, messages,
// turns, runs, the event envelope and control results (docs/ARCHITECTURE.md §Domain, §Events).
//
// It imports only the standard library so every other package — journal,
// adapters, shim, supervisor, service, transports — can share it without
// pulling anything else in.
package run

import (
	"encoding/json"
	"strconv"
	"time"
)

// Status is a run's lifecycle state (docs/ARCHITECTURE.md §Controls).
type Status string

const (
	StatusQueued           Status = "queued"
	StatusRunning          Status = "running"
	StatusAwaitingApproval Status = "awaiting_approval"
	StatusAwaitingClarify  Status = "awaiting_clarify"
	StatusCancelling       Status = "cancelling"
	StatusPaused           Status = "paused" // only where an agent itself reports it
	// StatusParked: the run hit its vendor's rate limit and waits for the
	// quota to reset; no process serves it until the core resumes it
	// (docs/ARCHITECTURE.md §Usage, parked runs).
	StatusParked Status = "parked"

	StatusCompleted   Status = "completed"
	StatusFailed      Status = "failed"
	StatusCancelled   Status = "cancelled"
	StatusInterrupted Status = "interrupted"
)

// Terminal reports whether s ends a run; nothing follows a terminal status.
func (s Status) Terminal() bool {
	switch s {
	case StatusCompleted, StatusFailed, StatusCancelled, StatusInterrupted:
		return true
	}
	return false
}

// Valid reports whether s is one of the known statuses.
func (s Status) Valid() bool {
	switch s {
	case StatusQueued, StatusRunning, StatusAwaitingApproval, StatusAwaitingClarify,
		StatusCancelling, StatusPaused, StatusParked:
		return true
	}
	return s.Terminal()
}

// TurnState is the write-ahead state of one user submission (docs/ARCHITECTURE.md §Controls).
type TurnState string

const (
	TurnSubmitted        TurnState = "submitted"
	TurnWorkerStarted    TurnState = "worker_started"
	TurnAssistantStarted TurnState = "assistant_started"
	TurnCompleted        TurnState = "completed"
	TurnInterrupted      TurnState = "interrupted"
)

// Terminal reports whether the turn is finished.
func (t TurnState) Terminal() bool { return t == TurnCompleted || t == TurnInterrupted }

// Project is a folder a person works in.
type Project struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Workspace string    `json:"workspace"`
	CreatedAt time.Time `json:"created_at"`
	// FolderMissing: the workspace folder no longer exists (it was moved or
	// deleted outside the app). Set when projects are listed.
	FolderMissing bool `json:"folder_missing,omitempty"`
}

// Session is one conversation with one agent inside a project.
type Session struct {
	ID        string `json:"id"`
	ProjectID string `json:"project_id"`
	Title     string `json:"title"`
	Agent     string `json:"agent"`
	Model     string `json:"model,omitempty"`
	Profile   string `json:"profile,omitempty"`
	Archived  bool   `json:"archived"`
	// NativeSessionID is the agent's own id for the conversation (ACP session
	// id, Claude session_id, Codex thread id) used to resume it.
	NativeSessionID string    `json:"native_session_id,omitempty"`
	CreatedAt       time.Time `json:"created_at"`
	// UpdatedAt moves only on user or assistant activity, never on maintenance.
	UpdatedAt time.Time `json:"updated_at"`
	// ImportedFrom is set on a session brought in from a bundle (what it
	// was exported from); such a session is read-only.
	ImportedFrom string `json:"imported_from,omitempty"`
	// WorkspaceID is the workspace the session works in ("": the
	// project's checkout; docs/ARCHITECTURE.md §Workspaces). Never
	// written through the session: journal.SetSessionWorkspace.
	WorkspaceID string `json:"workspace_id,omitempty"`
	// LastRunStatus is the status of the session's newest run ("" when it
	// has none), read with the session: the sidebar marks a session whose
	// last run failed (issue 23.13). A follow-up cancelled before it
	// started does not count. Never written through the session.
	LastRunStatus Status `json:"last_run_status,omitempty"`
	// Config holds the person's choices of the agent's session settings
	// (option id → value: mode, thought level, switches) that the
	// session's next runs start with (docs/ARCHITECTURE.md §Session config
	// options). The model is Model.
	Config map[string]string `json:"config,omitempty"`
}

// Role of a message author.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one entry of a session's transcript. An assistant message has
// zero or one run; its Content is assembled from that run's events.
type Message struct {
	ID        string    `json:"id"`
	SessionID string    `json:"session_id"`
	Role      Role      `json:"role"`
	Content   string    `json:"content"`
	RunID     string    `json:"run_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	// RunStatus and Error describe an assistant message's run, so a
	// transcript shows an interrupted or failed turn without another read.
	RunStatus Status `json:"run_status,omitempty"`
	Error     string `json:"error,omitempty"`
	// Attachments are the paths a user message carried.
	Attachments []string `json:"attachments,omitempty"`
}

// Turn is the write-ahead record of one user submission.
type Turn struct {
	ID                 string    `json:"id"`
	SessionID          string    `json:"session_id"`
	RunID              string    `json:"run_id"`
	UserMessageID      string    `json:"user_message_id"`
	AssistantMessageID string    `json:"assistant_message_id"`
	ClientRequestID    string    `json:"client_request_id,omitempty"`
	State              TurnState `json:"state"`
	// Outcome is the run's terminal status once the turn is finished.
	Outcome   Status    `json:"outcome,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Run is one turn of work by one agent process.
type Run struct {
	ID                 string `json:"id"`
	ProjectID          string `json:"project_id"`
	SessionID          string `json:"session_id"`
	TurnID             string `json:"turn_id"`
	UserMessageID      string `json:"user_message_id"`
	AssistantMessageID string `json:"assistant_message_id"`
	Agent              string `json:"agent"`
	Model              string `json:"model,omitempty"`
	Status             Status `json:"status"`
	LastSeq            int64  `json:"last_seq"`
	Terminal           bool   `json:"terminal"`
	PendingApprovalID  string `json:"pending_approval_id,omitempty"`
	PendingClarifyID   string `json:"pending_clarify_id,omitempty"`
	ExitCode           *int   `json:"exit_code,omitempty"`
	Error              string `json:"error,omitempty"`
	// ActiveControls names the controls that make sense now
	// ("cancel", "approval", "clarify", "queue", "model").
	ActiveControls []string   `json:"active_controls,omitempty"`
	CreatedAt      time.Time  `json:"created_at"`
	StartedAt      *time.Time `json:"started_at,omitempty"`
	EndedAt        *time.Time `json:"ended_at,omitempty"`

	// ResumesAt is when a parked run resumes by itself (RFC 3339);
	// ParkAttempts counts the times the run parked (kept once it ends).
	ResumesAt    string `json:"resumes_at,omitempty"`
	ParkAttempts int    `json:"park_attempts,omitempty"`
}

// StartRequest asks for a new run: one user message in a session.
type StartRequest struct {
	SessionID       string   `json:"session_id"`
	Message         string   `json:"message"`
	ClientRequestID string   `json:"client_request_id"`
	Attachments     []string `json:"attachments,omitempty"`
	Model           string   `json:"model,omitempty"`
	// AgentMessage, when set, is what the agent is given instead of
	// Message (which the transcript keeps): a forked session's first
	// message with the conversation handed over ahead of it.
	AgentMessage string `json:"-"`
	// Fork, when set, has the agent start as a fork of its own session
	// (docs/ARCHITECTURE.md §Checkpoints, native forks); AgentMessage is
	// then given only where it could not make that fork.
	Fork *NativeFork `json:"-"`
}

// NativeFork asks an agent for a fork of its own session: the new session
// keeps the first Turns turns of session From. All says those are all the
// turns it has, so a fork at its end (ACP session/fork) is exact; Next is
// the message of the turn after them, which an agent forking at a turn
// checks its turn Turns+1 against before forking there (a mismatch: no
// fork, and the conversation is handed over instead).
type NativeFork struct {
	From  string `json:"from"`
	Turns int    `json:"turns"`
	All   bool   `json:"all,omitempty"`
	Next  string `json:"next,omitempty"`
	// At is the agent's own id of the last message kept, where it forks
	// at one (Claude Code: an assistant line's uuid), found in its files
	// before it starts (history.ForkPoint).
	At string `json:"at,omitempty"`
}

// StartResult is what a start (or queue) returns: HTTP 202's body.
type StartResult struct {
	RunID              string `json:"run_id"`
	SessionID          string `json:"session_id"`
	UserMessageID      string `json:"user_message_id"`
	AssistantMessageID string `json:"assistant_message_id"`
	Status             Status `json:"status"`
}

// ControlStatus is the outcome of a control (docs/ARCHITECTURE.md §Controls table).
type ControlStatus string

const (
	ControlAccepted    ControlStatus = "accepted"
	ControlNotActive   ControlStatus = "not-active"
	ControlConflict    ControlStatus = "conflict"
	ControlUnsupported ControlStatus = "unsupported"
	ControlExpired     ControlStatus = "expired"
	// ControlInvalid: the answer is not one of the offered choices (HTTP
	// 400); the prompt stays pending.
	ControlInvalid ControlStatus = "invalid"
)

// ControlResult answers cancel, approval, clarify, queue and set-model.
type ControlResult struct {
	Accepted bool          `json:"accepted"`
	Status   ControlStatus `json:"status"`
	EventID  string        `json:"event_id,omitempty"`
	Message  string        `json:"message,omitempty"`
	// RunID names the new run a queue control created.
	RunID string `json:"run_id,omitempty"`
}

// EventID formats the envelope id "<run_id>:<seq>".
func EventID(runID string, seq int64) string {
	return runID + ":" + strconv.FormatInt(seq, 10)
}

// Event is the one envelope every adapter's output is normalized into.
type Event struct {
	EventID   string          `json:"event_id"`
	Seq       int64           `json:"seq"`
	RunID     string          `json:"run_id"`
	SessionID string          `json:"session_id"`
	Type      EventType       `json:"type"`
	CreatedAt float64         `json:"created_at"` // unix seconds, fractional
	Terminal  bool            `json:"terminal"`
	Payload   json.RawMessage `json:"payload"`
}

// UnixSeconds converts t to the envelope's created_at.
func UnixSeconds(t time.Time) float64 {
	return float64(t.UnixNano()) / 1e9
}
