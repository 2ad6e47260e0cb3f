// Package adapter is the contract between the run engine and an agent's
// protocol. An adapter is a protocol translator, not a runtime surrogate: it
// speaks the agent's native protocol (ACP, Claude stream-json, Codex
// app-server, …), maps native frames to normalized run events through pure
// functions, and turns controls into native messages. It never touches the
// journal, never assigns seqs and never emits the terminal "done": the shim
// does those, from the TurnResult a turn returns.
//
// One package per protocol lives below this one (acp/, claude/, codex/, …);
// each provides Adapter values that the composition root adds to a
// Registry (registry.go) by name (docs/ARCHITECTURE.md §Adapters).
package adapter

import (
	"fmt"

	"context"
	"errors"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"io"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Sentinel errors callers branch on.
var (
	// ErrUnsupported: the agent cannot do this (no approvals, no model switch).
	ErrUnsupported = fmt.Errorf("adapter: %w", errdefs.ErrUnsupported)
	// ErrNotPending: no such approval/clarify is waiting (unknown, answered, expired).
	ErrNotPending = errors.New("adapter: nothing pending with that id")
	// ErrNotInstalled: the agent's program is not on this machine.
	ErrNotInstalled = errors.New("adapter: agent not installed")
	// ErrAgentExited: the agent process ended while a turn was in flight.
	ErrAgentExited = errors.New("adapter: agent exited")
	// ErrBusy: a turn is already in flight on this connection.
	ErrBusy = errors.New("adapter: a turn is already running")
	// ErrInvalidAnswer: the answer is not one of the options offered; the
	// request stays pending.
	ErrInvalidAnswer = errors.New("adapter: not one of the offered options")
)

// NoAnswerError: the agent started but did not answer its first request in
// time — most often the command is not the agent's protocol mode (a chat
// program waiting on its terminal). Its message is for people.
type NoAnswerError struct {
	Command string        // the command line as configured
	After   time.Duration // how long it was given
}

func (e *NoAnswerError) Error() string {
	secs := int((e.After + time.Second - 1) / time.Second) // never "0 s"
	return fmt.Sprintf("The agent did not answer within %d s — is `%s` the right command?", secs, e.Command)
}

// Capabilities say which controls and features an agent supports; the UI
// hides what an agent cannot do.
type Capabilities struct {
	Streaming bool `json:"streaming"`
	Approvals bool `json:"approvals"`
	Clarify   bool `json:"clarify"`
	Resume    bool `json:"resume"`
	Cancel    bool `json:"cancel"`
	Models    bool `json:"models"` // set model mid-session
	Queue     bool `json:"queue"`  // accepts a follow-up while a turn runs
}

// Health is the result of a bounded health check (HealthTimeout).
type Health struct {
	Installed bool   `json:"installed"`
	OK        bool   `json:"ok"`
	Version   string `json:"version,omitempty"`
	Path      string `json:"path,omitempty"`
	// Message is safe to show: what is wrong and how to fix it
	// ("Claude Code not found — install with: npm install -g @anthropic-ai/claude-code").
	Message string `json:"message,omitempty"`
}

// Config is what a person or a test configures for an agent: which program,
// how to reach a model. It is per agent, not per run.
type Config struct {
	// Kind and Name make the setting an agent a person added (acp,
	// command, openai-compatible; backend/agents/agentdef): empty for the
	// built-in agents, whose kind and name are their adapter's.
	Kind string `json:"kind,omitempty"`
	Name string `json:"name,omitempty"`
	// Command overrides the program and leading arguments (e.g. a test's
	// built fake agent, or "/opt/hermes/bin/hermes acp").
	Command []string `json:"command,omitempty"`
	// Env is added to the child's environment only (KEY=VALUE); this
	// process's environment is never mutated.
	Env []string `json:"env,omitempty"`
	// BaseURL and APIKey point HTTP-speaking agents at a model server.
	BaseURL string `json:"base_url,omitempty"`
	APIKey  string `json:"api_key,omitempty"`
	// Home is a private config/home dir for the agent (HERMES_HOME,
	// CLAUDE_CONFIG_DIR, CODEX_HOME, …) where the adapter needs one.
	Home string `json:"home,omitempty"`
	// Options are adapter-specific switches (the Codex sandbox and approval
	// policy, Hermes' yolo mode, …); the run engine passes them to Start as
	// StartRequest.Metadata, the only way a person's settings reach them.
	Options map[string]string `json:"options,omitempty"`
}

// StartRequest opens a connection to an agent for one session. The
// connection may then serve several turns (a warm agent).
type StartRequest struct {
	SessionID string
	// NativeSessionID resumes the agent's own session when non-empty
	// (ACP session/load, claude --resume, codex thread resume).
	NativeSessionID string
	Workspace       string
	Profile         string
	Model           string
	Provider        string
	Toolsets        []string
	Metadata        map[string]string
	Config          Config
	// Fork, when set (and NativeSessionID empty), starts the session as
	// a fork of the agent's own session Fork.From where the agent can
	// make one; a connection that did make it says so (Forker).
	Fork *run.NativeFork
}

// Forker is implemented by connections that can start as a native fork:
// ForkedNatively says whether this one did, so the run gives its agent the
// message alone rather than the conversation handed over ahead of it.
type Forker interface {
	ForkedNatively() bool
}

// TurnRequest is one user message on an open connection.
type TurnRequest struct {
	RunID       string
	Message     string
	Attachments []string // absolute paths inside the workspace
	Model       string   // per-turn override, where supported
	// Settings are the session's kept choices of the agent's settings
	// (option id → value), applied before the prompt where the agent
	// offers them (ConfigSetter; docs/ARCHITECTURE.md §Session config
	// options).
	Settings map[string]string
}

// TurnResult is how a turn ended. The shim turns it into the run's one
// "done" event: Err != nil → failed (or cancelled if Cancelled), else
// completed.
type TurnResult struct {
	StopReason string // agent's own: end_turn, max_tokens, refusal, cancelled…
	Cancelled  bool
	Usage      *run.Usage
	ExitCode   *int
	Err        error
}

// ConfigSetter is implemented by connections whose agent reports session
// settings (ACP session config options: mode, thought level, switches —
// docs/ARCHITECTURE.md §Session config options). SetConfigOption sets one
// and returns the whole new set; a value the setting does not offer is
// ErrInvalidAnswer, an agent without settings ErrUnsupported.
type ConfigSetter interface {
	SetConfigOption(ctx context.Context, id, value string) ([]run.ConfigOption, error)
}

// Emitter receives normalized events for the current turn, in order.
// Implementations (the shim) are safe for concurrent use; Emit returns
// quickly (it enqueues) and reports an error only if the event cannot be
// recorded at all.
type Emitter interface {
	Emit(t run.EventType, payload any) error
}

// EmitFunc adapts a function to Emitter (handy in tests).
type EmitFunc func(t run.EventType, payload any) error

// Emit calls f.
func (f EmitFunc) Emit(t run.EventType, payload any) error { return f(t, payload) }

// ProcSpec describes a child process an adapter wants started.
type ProcSpec struct {
	Path string   // resolved program path
	Args []string // without argv[0]
	Dir  string   // working directory (the workspace)
	Env  []string // full environment for the child
}

// Proc is a started child process with its stdio pipes. The launcher owns
// process-group placement, parent-death signals and stderr logging.
type Proc interface {
	Stdin() io.WriteCloser
	Stdout() io.ReadCloser
	Pid() int
	// Wait blocks until the process exits and returns its exit code
	// (-1 when killed by a signal) and any error from waiting.
	Wait() (exitCode int, err error)
	// Exited is closed once the process has exited.
	Exited() <-chan struct{}
}

// Launcher starts child processes for adapters. The shim provides one that
// puts the child in its own process group, sets a parent-death signal on
// Linux and copies stderr into the run's log.
type Launcher interface {
	Launch(ctx context.Context, spec ProcSpec) (Proc, error)
}

// Host is what the engine gives an adapter besides the request.
type Host struct {
	Launcher Launcher
	// Log receives diagnostics for the run's log (never the journal).
	Log io.Writer
}

// Conn is a live connection to an agent, serving one session's turns one at
// a time.
type Conn interface {
	// NativeSessionID is the agent's id for the session, known after Start.
	NativeSessionID() string
	// Pid is the agent's process (and process group) id; 0 for HTTP agents.
	Pid() int
	// Turn sends one user message and blocks until the agent finishes the
	// turn, emitting normalized events as they arrive. Cancelling ctx does
	// not cancel the turn; Cancel does.
	Turn(ctx context.Context, req TurnRequest, emit Emitter) TurnResult
	// Cancel asks the agent to stop the current turn through its protocol
	// (ACP session/cancel, interrupt control request, …). It returns once
	// the request is sent; the turn then ends with Cancelled set.
	Cancel(ctx context.Context) error
	// RespondApproval answers a pending approval.requested with one of its
	// option ids. ErrNotPending if none is waiting with that id.
	RespondApproval(ctx context.Context, approvalID, optionID string) error
	// RespondClarify answers a pending clarify.requested.
	RespondClarify(ctx context.Context, clarifyID, answer string) error
	// SetModel switches the model for later turns; ErrUnsupported if it cannot.
	SetModel(ctx context.Context, model string) error
	// Close ends the connection and the agent process.
	Close() error
	// Done is closed when the agent process has gone away.
	Done() <-chan struct{}
}

// Adapter knows one agent protocol.
type Adapter interface {
	// Name is the agent's id ("hermes", "claude", "codex", "gemini", "demo", …).
	Name() string
	// DisplayName is for people ("Claude Code", "Demo agent (no AI)").
	DisplayName() string
	Capabilities() Capabilities
	// Health checks the agent is installed and usable; callers bound ctx
	// with HealthTimeout.
	Health(ctx context.Context, cfg Config) Health
	// Start launches (or connects to) the agent for a session.
	Start(ctx context.Context, req StartRequest, host Host) (Conn, error)
}

// HealthTimeout bounds a health check.
// It fits an ACP agent's handshake (acp.HealthHandshakeTimeout): some
// start in seconds (docs/ARCHITECTURE.md §Agent health).
const HealthTimeout = 10 * time.Second
