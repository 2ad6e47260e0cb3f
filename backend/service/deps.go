// Package service is Hermes Desk's transport-neutral API (docs/ARCHITECTURE.md §API):
// projects, sessions and messages, runs and their events, controls, agents,
// search, settings, audit and health. The Wails bindings, the HTTP+SSE API
// and the command line are thin doors onto it; no logic lives in them.
//
// The service depends on small consumer interfaces (Store, Runner, Agents)
// rather than on the journal and supervisor packages, so it is tested with
// function-field fakes and wired to the real ones in a few lines.
package service

import (
	"context"
	"encoding/json"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Store is what the service reads and writes directly in the journal. Runs
// are created by the Runner (which owns the turn write-ahead), never here.
// backend/journal's Store satisfies it directly: the request and result
// types are the journal's contract in backend/run (docs/ARCHITECTURE.md
// §Journal); tests use servicetest.Mem or backend/mock's Journal.
type Store interface {
	CreateProject(ctx context.Context, name, workspace string) (run.Project, error)
	ListProjects(ctx context.Context) ([]run.Project, error)
	GetProject(ctx context.Context, id string) (run.Project, error)
	RenameProject(ctx context.Context, id, name string) (run.Project, error)
	MoveProject(ctx context.Context, id, workspace string) (run.Project, error)
	// DeleteProject removes the project and its sessions from the journal
	// (never files on disk); one with an active run is a conflict.
	DeleteProject(ctx context.Context, id string) error

	CreateSession(ctx context.Context, s run.Session) (run.Session, error)
	// ListSessions lists a project's sessions (all projects when projectID
	// is empty), most meaningful activity first.
	ListSessions(ctx context.Context, projectID string) ([]run.Session, error)
	GetSession(ctx context.Context, id string) (run.Session, error)
	Messages(ctx context.Context, sessionID string) ([]run.Message, error)
	UpdateSession(ctx context.Context, id string, u run.SessionUpdate) (run.Session, error)
	DeleteSession(ctx context.Context, id string) error

	GetRun(ctx context.Context, id string) (run.Run, error)
	// ListRuns lists matching runs, newest first.
	ListRuns(ctx context.Context, f run.RunFilter) ([]run.Run, error)
	// Events returns up to limit events of runID with seq > after, in seq order.
	Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error)

	Search(ctx context.Context, q string, limit int) ([]run.SearchHit, error)
	GetSettings(ctx context.Context) (map[string]json.RawMessage, error)
	PutSettings(ctx context.Context, s map[string]json.RawMessage) error
	Audit(ctx context.Context) (run.Audit, error)
	// Ping touches the database (deep health).
	Ping(ctx context.Context) error
}

// Guard reports what a read of the open database cannot see: a deleted
// data folder, read-only database files or a full disk (deep health asks it
// before Ping; a write to read-only files could crash the process with
// SIGBUS inside SQLite's shared memory). backend/datadir's Guard is one.
type Guard interface {
	Check() error
}

// Runner is what the service needs from the supervisor: the run controls
// and the capabilities below, each a named interface, so what the service
// asks of its runner is read here rather than found in type assertions.
// Every runner has all of them: the supervisor; servicetest.Mem in tests;
// NewCatalog's, which refuses runs (catalog.go).
type Runner interface {
	RunControls
	ForceCanceller
	Resumer
	RunLogs
	WarmRetirer
	RecentEvents
	EventTapper // declared beside the watch bus (watch.go)
}

// RunControls start runs and act on them.
type RunControls interface {
	// Start submits one user message (idempotent by ClientRequestID).
	Start(ctx context.Context, req run.StartRequest) (run.StartResult, error)
	Cancel(ctx context.Context, runID string) (run.ControlResult, error)
	Approve(ctx context.Context, runID, approvalID, choice string) (run.ControlResult, error)
	Clarify(ctx context.Context, runID, clarifyID, answer string) (run.ControlResult, error)
	// Queue submits a follow-up in the run's session that starts when the
	// run ends; the result names the new run.
	Queue(ctx context.Context, runID, message, clientRequestID string) (run.ControlResult, error)
	SetModel(ctx context.Context, runID, model string) (run.ControlResult, error)
	SetConfig(ctx context.Context, runID, id, value string) (run.ControlResult, error)
	// Watch replays the run's events with seq > after and then follows live
	// ones (snapshot-then-stream: no gap, no duplicate at the seam). The
	// channel is closed after the terminal event, when ctx ends, or when the
	// watcher is dropped for falling behind.
	Watch(ctx context.Context, runID string, after int64) (<-chan run.Event, error)
}

// ForceCanceller stops a run without the grace period a stubborn agent
// gets ("Force stop"; docs/ARCHITECTURE.md §Cancel ladder). A runner
// without agent processes to kill cancels as usual.
type ForceCanceller interface {
	ForceCancel(ctx context.Context, runID string) (run.ControlResult, error)
}

// Resumer starts a parked run now instead of at its quota's reset
// (docs/ARCHITECTURE.md §Usage, parked runs); not-active for any other run.
type Resumer interface {
	Resume(ctx context.Context, runID string) (run.ControlResult, error)
}

// RunLogs reads the end of a run's own log ("Open log" on an error); ""
// from a runner that keeps none.
type RunLogs interface {
	RunLog(ctx context.Context, runID string) (string, error)
}

// WarmRetirer closes warm agents (docs/ARCHITECTURE.md §Warm agents):
// every one of an agent whose settings changed, or the one kept for a
// session whose project folder went. A runner without warm agents retires
// none.
type WarmRetirer interface {
	RetireWarm(ctx context.Context, agent string) int
	RetireWarmSession(ctx context.Context, sessionID string) bool
}

// RecentEvents reads a run's events with seq > after: the supervisor
// serves its runs' newest from its hubs' memory and the rest from the
// journal, so a page pulled after a doorbell is served from the payloads
// the shim already sent instead of read back
// (docs/ARCHITECTURE.md §Life of one event); a runner without that memory
// reads the journal.
type RecentEvents interface {
	Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error)
}

// Agents is what the service needs from the agent registry.
type Agents interface {
	// List reports installed agents with versions and health.
	List(ctx context.Context) ([]AgentInfo, error)
	// Known reports whether name is an agent this build can run: a
	// built-in one or one a person added.
	Known(name string) bool
	// BuiltIn reports whether name is one of this build's own agents.
	BuiltIn(name string) bool
	// DisplayName is the name people see for an agent (the one lookup:
	// sidebar, header, tray, notifications); the id when it has none.
	DisplayName(ctx context.Context, name string) string
	// DisplayNames maps every agent's id to its display name, without
	// checking any agent's health.
	DisplayNames(ctx context.Context) (map[string]string, error)
}

// AgentInfo describes one agent for the agent picker.
type AgentInfo struct {
	Name         string `json:"name"`
	DisplayName  string `json:"display_name"`
	Installed    bool   `json:"installed"`
	OK           bool   `json:"ok"`
	Version      string `json:"version,omitempty"`
	Path         string `json:"path,omitempty"`
	Message      string `json:"message,omitempty"`
	Capabilities any    `json:"capabilities,omitempty"`
	// Added: a person added this agent (it can be removed); the built-in
	// ones cannot.
	Added bool `json:"added,omitempty"`
}

// ShimInfo is one active run (each is served by a shim), for deep health.
type ShimInfo struct {
	RunID     string     `json:"run_id"`
	SessionID string     `json:"session_id"`
	Agent     string     `json:"agent"`
	Status    run.Status `json:"status"`
	LastSeq   int64      `json:"last_seq"`
}

// WarmSource lists the agents kept warm for their session's next run, for
// deep health (the supervisor, through an adapter).
type WarmSource interface {
	WarmAgents() []WarmAgent
}

// WarmAgent is one warm agent and the memory it holds: the supervisor's
// own type (run.WarmAgent), named here for the service's readers.
type WarmAgent = run.WarmAgent
