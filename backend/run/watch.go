package run

import "time"

// The watch bus (docs/ARCHITECTURE.md "The watch bus"): one live stream of
// what changed anywhere in the data dir. A watcher gets a WatchSnapshot
// first, built under the lock that registers it, then small change
// messages, each with the bus sequence. A watcher that falls behind gets a
// final WatchGoodbye and reconnects for a fresh snapshot. The window, the
// tray, the notifier, the scheduler and the CLI all read this one stream;
// nothing polls.

// WatchType names a watch bus message.
type WatchType string

const (
	// WatchSnapshotType is always the first message: Snapshot is set.
	WatchSnapshotType WatchType = "snapshot"
	// WatchRunChanged: a run was created, moved status, advanced its seq
	// (only where Pending or Status changed, not per token), got or lost a
	// pending prompt, or ended. Run is set; a terminal Status means it left
	// the active set.
	WatchRunChanged WatchType = "run.changed"
	// WatchSessionChanged: a session or project was created, renamed,
	// archived, deleted or had activity. Session is set.
	WatchSessionChanged WatchType = "session.changed"
	// WatchAgentsChanged: agent health was re-checked (start, an explicit
	// re-check, settings saved, an agent failed to start).
	WatchAgentsChanged WatchType = "agents.changed"
	// WatchSchedulesChanged: a schedule was created, edited, paused or
	// deleted, or the scheduler recorded a firing (fired, skipped,
	// missed): its next and last run moved. A client re-reads the list.
	WatchSchedulesChanged WatchType = "schedules.changed"
	// WatchWorkspaceChanged: a workspace was made, finished, set up,
	// archived, restored, or found changed outside the app
	// (docs/ARCHITECTURE.md §Workspaces). Workspace is set.
	WatchWorkspaceChanged WatchType = "workspace.changed"
	// WatchCheckpointChanged: a run's files were undone, or a session's
	// files restored to before a turn (docs/ARCHITECTURE.md
	// §Checkpoints). Checkpoint is the undo's or restore's record; the
	// transcript shows it at its time.
	WatchCheckpointChanged WatchType = "checkpoint.changed"
	// WatchConflictsChanged: the conflict radar's answer for a project
	// moved (docs/ARCHITECTURE.md §Conflict radar). Conflicts is set.
	WatchConflictsChanged WatchType = "conflicts.changed"
	// WatchReviewChanged: a workspace's review changed — a file marked
	// viewed, a comment written, edited, deleted or sent, a file
	// reverted (docs/ARCHITECTURE.md §Review). Review names the workspace.
	WatchReviewChanged WatchType = "review.changed"
	// WatchHostChanged: a remote host was added, changed (its stored
	// record: started, found unreachable) or removed, or its core became
	// reachable or not (docs/ARCHITECTURE.md §Hosts); carries HostState,
	// the whole host. The snapshot's Hosts are every host.
	WatchHostChanged WatchType = "host.changed"
	// WatchGoodbye is the last message to a watcher that fell behind or to
	// every watcher when the core shuts down; Reason says which.
	WatchGoodbye WatchType = "goodbye"
	// WatchDoorbell is sent only to a watcher that asked for doorbells
	// (GET /api/watch?doorbells=1: the window): Run carries just RunID and
	// LastSeq, the run's newest committed event, coalesced to at most one
	// per run per animation frame; the window then pulls the events. It
	// does not move the bus seq (Seq is the bus seq it was sent at).
	WatchDoorbell WatchType = "doorbell"
)

// WatchMessage is one message on the watch bus.
type WatchMessage struct {
	// Seq is the bus sequence: increasing by one per message the bus
	// publishes (a watcher's snapshot carries the seq it is current at).
	Seq      int64          `json:"seq"`
	Type     WatchType      `json:"type"`
	Snapshot *WatchSnapshot `json:"snapshot,omitempty"`
	Run      *RunState      `json:"run,omitempty"`
	Session  *SessionChange `json:"session,omitempty"`
	// Workspace is set on workspace.changed.
	Workspace *Workspace `json:"workspace,omitempty"`
	// Checkpoint is set on checkpoint.changed.
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
	// Conflicts is set on conflicts.changed.
	Conflicts *Conflicts `json:"conflicts,omitempty"`
	// HostState is set on host.changed.
	HostState *HostState `json:"host_state,omitempty"`
	Reason    string     `json:"reason,omitempty"`

	// Review is set on review.changed (docs/ARCHITECTURE.md §Review).
	Review *ReviewChange `json:"review,omitempty"`
	// Host is the host whose core told a workspace.changed; empty on this
	// machine (docs/ARCHITECTURE.md §Remote cores).
	Host string `json:"host,omitempty"`
}

// Host is a stored remote host, as GET /api/hosts lists it
// (docs/ARCHITECTURE.md §Hosts; journal table hosts).
type Host struct {
	ID     string `json:"id"`
	Target string `json:"target"` // user@host or a ~/.ssh/config alias
	// Status is ready (checked), running (its core answered through the
	// link) or unreachable (Note says why).
	Status   string    `json:"status"`
	OS       string    `json:"os"`
	Arch     string    `json:"arch"`
	Version  string    `json:"version"` // the Hermes Desk started there
	Note     string    `json:"note"`
	AddedAt  time.Time `json:"added_at"`
	LastSeen time.Time `json:"last_seen,omitzero"`
}

// HostState is a remote host as the watch bus carries it: its stored
// record and whether its core answers this side's follower now
// (docs/ARCHITECTURE.md §Hosts).
type HostState struct {
	Host string `json:"host"` // the host's id
	// Record is the stored host; absent when Removed (or for a core
	// followed without one, in tests).
	Record    *Host `json:"record,omitempty"`
	Reachable bool  `json:"reachable"`
	// Error says in words why it cannot be reached; its runs go on there.
	Error string    `json:"error,omitempty"`
	Since time.Time `json:"since,omitzero"`
	// Removed: the host was removed; forget it.
	Removed bool `json:"removed,omitempty"`
}

// WatchSnapshot is the state a watcher starts from.
type WatchSnapshot struct {
	// Runs are the active and queued runs, oldest first.
	Runs []RunState `json:"runs"`
	// SessionsVersion changes whenever the session or project list does;
	// a client re-reads the list when it differs from the one it holds.
	SessionsVersion int64 `json:"sessions_version"`
	// Conflicts are the conflict radar's answers, one per project that
	// has an overlap (docs/ARCHITECTURE.md §Conflict radar).
	Conflicts []Conflicts `json:"conflicts,omitempty"`
	// Hosts are the remote hosts, and whether each answers.
	Hosts []HostState `json:"hosts,omitempty"`
}

// RunState is what a watcher needs to show one run without another read.
type RunState struct {
	RunID     string `json:"run_id"`
	SessionID string `json:"session_id"`
	ProjectID string `json:"project_id,omitempty"`
	Agent     string `json:"agent"`
	// AgentName is the agent's name for people (the service's one lookup:
	// a built-in agent's own, or the one a person gave an added agent).
	AgentName    string `json:"agent_name,omitempty"`
	SessionTitle string `json:"session_title,omitempty"`
	// Workspace names the worktree the run works in (its branch) for the
	// tray's run line; empty in the project's own checkout
	// (docs/ARCHITECTURE.md §Workspaces).
	Workspace string         `json:"workspace,omitempty"`
	Status    Status         `json:"status"`
	LastSeq   int64          `json:"last_seq"`
	CreatedAt time.Time      `json:"created_at"`
	StartedAt *time.Time     `json:"started_at,omitempty"`
	EndedAt   *time.Time     `json:"ended_at,omitempty"`
	Pending   *PendingPrompt `json:"pending,omitempty"`
	// ResumesAt (RFC 3339) is when a parked run resumes by itself
	// (docs/ARCHITECTURE.md §Usage, parked runs).
	ResumesAt string `json:"resumes_at,omitempty"`
	// Error is a terminal run's safe error summary, if any.
	Error string `json:"error,omitempty"`
	// Host is the host whose core runs it; empty on this machine
	// (docs/ARCHITECTURE.md §Remote cores).
	Host string `json:"host,omitempty"`
	// HostName is how the person wrote that host (its record's target),
	// set by the bus that tags the run; say it with Where.
	HostName string `json:"host_name,omitempty"`
}

// Where names the host the run runs on for a person (HostLabel); "" on
// this machine.
func (r RunState) Where() string { return HostLabel(r.Host, r.HostName) }

// PendingKind says what a pending prompt asks for.
type PendingKind string

const (
	PendingApproval PendingKind = "approval"
	PendingClarify  PendingKind = "clarify"
)

// PendingPrompt is an approval or clarify question waiting for a person.
type PendingPrompt struct {
	Kind PendingKind `json:"kind"`
	// ID is the approval_id or clarify_id to answer.
	ID string `json:"id"`
	// Title is the approval's title or the clarify question.
	Title   string `json:"title"`
	Command string `json:"command,omitempty"`
	// Options are the agent's own approval options; for a clarify, its
	// choices (ID and Label both the choice text).
	Options []ApprovalOption `json:"options,omitempty"`
	// Unexplained: the approval says nothing a person could judge
	// (ApprovalRequested.Unexplained); only the window may allow it.
	Unexplained bool `json:"unexplained,omitempty"`
}

// SessionChangeKind says what happened to a session.
type SessionChangeKind string

const (
	SessionCreated  SessionChangeKind = "created"
	SessionUpdated  SessionChangeKind = "updated" // renamed, model or archived flag changed
	SessionDeleted  SessionChangeKind = "deleted"
	SessionActivity SessionChangeKind = "activity" // a message or run moved its updated_at
	ProjectChanged  SessionChangeKind = "project"  // a project was created, renamed or removed
)

// SessionChange is the payload of session.changed.
type SessionChange struct {
	Kind      SessionChangeKind `json:"kind"`
	SessionID string            `json:"session_id,omitempty"`
	ProjectID string            `json:"project_id,omitempty"`
	// SessionsVersion is the list's version after this change.
	SessionsVersion int64 `json:"sessions_version"`
	// Host is the host whose core changed it; empty on this machine.
	Host string `json:"host,omitempty"`
}
