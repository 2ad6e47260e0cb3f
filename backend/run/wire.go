package run

import "time"

// The closed sets of the wire, listed once here so the generated contract
// (backend/contract, docs/ARCHITECTURE.md §API "The contract") can carry
// them to the frontend: Go has no way to enumerate a type's constants.

// Statuses lists every Status, active ones first.
var Statuses = []Status{
	StatusQueued, StatusRunning, StatusAwaitingApproval, StatusAwaitingClarify, StatusCancelling, StatusPaused, StatusParked,
	StatusCompleted, StatusFailed, StatusCancelled, StatusInterrupted,
}

// ControlStatuses lists every ControlStatus.
var ControlStatuses = []ControlStatus{
	ControlAccepted, ControlNotActive, ControlConflict, ControlUnsupported, ControlExpired, ControlInvalid,
}

// WatchTypes lists every WatchType.
var WatchTypes = []WatchType{
	WatchSnapshotType, WatchRunChanged, WatchSessionChanged, WatchAgentsChanged, WatchSchedulesChanged,
	WatchWorkspaceChanged, WatchGoodbye, WatchDoorbell, WatchCheckpointChanged,
	WatchConflictsChanged,
	WatchReviewChanged,
	WatchHostChanged,
}

// PendingKinds lists every PendingKind.
var PendingKinds = []PendingKind{PendingApproval, PendingClarify}

// SessionChangeKinds lists every SessionChangeKind.
var SessionChangeKinds = []SessionChangeKind{SessionCreated, SessionUpdated, SessionDeleted, SessionActivity, ProjectChanged}

// Roles lists every Role.
var Roles = []Role{RoleUser, RoleAssistant}

// ErrorCode is the code of a run's "error" event (ErrorInfo.Code): why a
// run failed, in words a program can branch on (docs/ARCHITECTURE.md
// §Errors). The window picks its fix from it; the journal counts a
// schedule's start failures by it.
type ErrorCode string

const (
	// ErrorAgentUnknown: no agent of that id is configured.
	ErrorAgentUnknown ErrorCode = "agent_unknown"
	// ErrorAgentNotInstalled: the agent's command is not on PATH.
	ErrorAgentNotInstalled ErrorCode = "agent_not_installed"
	// ErrorAgentStart: the agent's process started but never answered.
	ErrorAgentStart ErrorCode = "agent_start"
	// ErrorAuthRequired: the agent wants a sign-in first.
	ErrorAuthRequired ErrorCode = "auth_required"
	// ErrorAgent: the agent itself failed or exited mid-run.
	ErrorAgent ErrorCode = "agent"
	// ErrorCodex: Codex reported an error of its own.
	ErrorCodex ErrorCode = "codex"
	// ErrorJournal: the run could not be recorded (disk full, read-only).
	ErrorJournal ErrorCode = "journal"
	// ErrorStart: the core could not start the run's shim.
	ErrorStart ErrorCode = "start"
	// ErrorInterrupted: the run's process was gone when the core looked
	// (a crash, a reboot); recovery closed it.
	ErrorInterrupted ErrorCode = "interrupted"
	// ErrorShimStopped: the run's host process (its shim) was terminated.
	ErrorShimStopped ErrorCode = "shim_stopped"
)

// ErrorCodes lists every ErrorCode.
var ErrorCodes = []ErrorCode{
	ErrorAgentUnknown, ErrorAgentNotInstalled, ErrorAgentStart, ErrorAuthRequired, ErrorAgent, ErrorCodex,
	ErrorJournal, ErrorStart, ErrorInterrupted, ErrorShimStopped,
}

// StartFailureCodes are the codes of a run whose agent never started:
// the window offers Install… or settings, and a schedule reports the
// firing as "could not start".
var StartFailureCodes = []ErrorCode{ErrorAgentNotInstalled, ErrorAgentStart, ErrorAgentUnknown}

// WarmAgent is one agent kept warm for its session's next run, with the
// memory it holds (deep health, docs/ARCHITECTURE.md §Warm agents): the
// supervisor lists them, the service reports them.
type WarmAgent struct {
	SessionID string    `json:"session_id"`
	Agent     string    `json:"agent"`
	Pid       int       `json:"pid"`
	AgentPid  int       `json:"agent_pid,omitempty"`
	Since     time.Time `json:"since"`
	IdleUntil time.Time `json:"idle_until"`
	// RSSBytes is the resident memory of the shim and of every process in
	// the agent's process group (0 where /proc is not available).
	RSSBytes int64 `json:"rss_bytes"`
}

// SentenceCodes are the codes whose Message Hermes Desk words itself for
// people, the lead sentence first (details in ErrorInfo.Detail): the window
// shows it as written, parsing nothing. The other codes (agent, codex,
// agent_start, start) carry the agent's or the system's own words, which
// the window orders itself (components/common/plainError.ts).
var SentenceCodes = []ErrorCode{
	ErrorAgentUnknown, ErrorAgentNotInstalled, ErrorAuthRequired, ErrorJournal, ErrorInterrupted, ErrorShimStopped,
}

// The cancel ladder (docs/ARCHITECTURE.md §Cancel ladder): Stop asks the
// agent through its protocol, SIGTERM to its group after
// ProtocolCancelWait, SIGKILL after the grace (a setting; DefaultCancelGrace
// unless changed). The window counts the same seconds down.
const (
	ProtocolCancelWait = 2 * time.Second
	DefaultCancelGrace = 5 * time.Second
)
