package run

// EventType names what an event says. The list is open: add what an agent
// needs and document it in docs/ARCHITECTURE.md §Events.
type EventType string

const (
	EventRunStarted       EventType = "run.started"
	EventStatus           EventType = "status"
	EventMessageUser      EventType = "message.user"
	EventTokenDelta       EventType = "token.delta"
	EventReasoningDelta   EventType = "reasoning.delta"
	EventReasoningDone    EventType = "reasoning.done"
	EventProgress         EventType = "progress"
	EventPlanUpdated      EventType = "plan.updated"
	EventToolStarted      EventType = "tool.started"
	EventToolUpdated      EventType = "tool.updated"
	EventToolDone         EventType = "tool.done"
	EventFileChanged      EventType = "file.changed"
	EventApprovalRequest  EventType = "approval.requested"
	EventApprovalResolved EventType = "approval.resolved"
	EventClarifyRequest   EventType = "clarify.requested"
	EventClarifyResolved  EventType = "clarify.resolved"
	EventCommandsUpdated  EventType = "commands.updated"
	EventModeUpdated      EventType = "mode.updated"
	EventModelUpdated     EventType = "model.updated"
	// EventConfigUpdated reports the agent's session settings (ACP session
	// config options: mode, thought level, switches); payload ConfigUpdated.
	EventConfigUpdated EventType = "config.updated"
	EventTitleUpdated  EventType = "title.updated"
	EventUsageUpdated  EventType = "usage.updated"
	EventUsageFinal    EventType = "usage.final"
	EventError         EventType = "error"
	// EventNotice is something the person should know that is not an error
	// (e.g. the agent could not resume its earlier session); payload Notice.
	EventNotice EventType = "notice"
	EventDone   EventType = "done"
	// EventCompacted replaces a terminal run's token-level events when
	// retention compacts them (docs/ARCHITECTURE.md §Journal); its payload is Compacted.
	EventCompacted EventType = "compacted"
)

// KnownEventTypes lists every type this build understands.
var KnownEventTypes = []EventType{
	EventRunStarted, EventStatus, EventMessageUser, EventTokenDelta,
	EventReasoningDelta, EventReasoningDone, EventProgress, EventPlanUpdated,
	EventToolStarted, EventToolUpdated, EventToolDone, EventFileChanged,
	EventApprovalRequest, EventApprovalResolved, EventClarifyRequest,
	EventClarifyResolved, EventCommandsUpdated, EventModeUpdated,
	EventModelUpdated, EventConfigUpdated, EventTitleUpdated, EventUsageUpdated, EventUsageFinal,
	EventError, EventNotice, EventDone, EventCompacted,
}

// Known reports whether t is in KnownEventTypes.
func (t EventType) Known() bool {
	for _, k := range KnownEventTypes {
		if k == t {
			return true
		}
	}
	return false
}

// Payloads. Each event type's payload is one of these, JSON-encoded.
// Field names are the wire contract shared with the frontend.

// RunStarted opens a run.
type RunStarted struct {
	Agent           string `json:"agent"`
	Model           string `json:"model,omitempty"`
	Workspace       string `json:"workspace,omitempty"`
	NativeSessionID string `json:"native_session_id,omitempty"`
	Pid             int    `json:"pid,omitempty"`
}

// StatusChanged is the payload of "status".
type StatusChanged struct {
	Status Status `json:"status"`
	Detail string `json:"detail,omitempty"`
	// ResumesAt (RFC 3339) and Attempt come with status parked: when the
	// run resumes by itself and how many times it has parked so far
	// (docs/ARCHITECTURE.md §Usage, parked runs).
	ResumesAt string `json:"resumes_at,omitempty"`
	Attempt   int    `json:"attempt,omitempty"`
}

// MessageUser echoes the user's message into the run's stream.
type MessageUser struct {
	MessageID string `json:"message_id"`
	Text      string `json:"text"`
}

// TextDelta is the payload of token.delta and reasoning.delta.
type TextDelta struct {
	Text string `json:"text"`
}

// TextDone is the payload of reasoning.done: the assembled block.
type TextDone struct {
	Text string `json:"text"`
}

// Progress is a free-form progress note.
type Progress struct {
	Message string  `json:"message"`
	Percent float64 `json:"percent,omitempty"`
}

// PlanEntry is one step of an agent's plan.
type PlanEntry struct {
	Content  string `json:"content"`
	Status   string `json:"status"`             // pending, in_progress, completed
	Priority string `json:"priority,omitempty"` // high, medium, low
}

// PlanUpdated replaces the whole plan.
type PlanUpdated struct {
	Entries []PlanEntry `json:"entries"`
}

// ToolStarted opens a tool call card.
type ToolStarted struct {
	ToolCallID string `json:"tool_call_id"`
	Name       string `json:"name"`
	Title      string `json:"title,omitempty"`
	Kind       string `json:"kind,omitempty"` // read, edit, execute, search, fetch, think, other
	// Input is the sanitized arguments, as JSON.
	Input     any      `json:"input,omitempty"`
	Locations []string `json:"locations,omitempty"`
}

// ToolUpdated carries live output or a changed title/status, and the
// call's input when it arrives after tool.started (OpenCode, the Claude
// ACP wrappers): it replaces the card's input.
type ToolUpdated struct {
	ToolCallID string `json:"tool_call_id"`
	Title      string `json:"title,omitempty"`
	Status     string `json:"status,omitempty"`
	Output     string `json:"output,omitempty"` // appended output chunk
	Input      any    `json:"input,omitempty"`
}

// ToolDone closes a tool call card.
type ToolDone struct {
	ToolCallID string `json:"tool_call_id"`
	Status     string `json:"status"` // completed, failed, denied, cancelled
	Output     string `json:"output,omitempty"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	DurationMs int64  `json:"duration_ms,omitempty"`
	Error      string `json:"error,omitempty"`
}

// FileChanged reports a file the run created, edited or deleted, relative
// to the workspace, with what changed where it is known
// (docs/ARCHITECTURE.md §Events).
type FileChanged struct {
	Path   string `json:"path"`
	Action string `json:"action,omitempty"` // created, modified, deleted
	// Diff is a unified diff of the change ("" when unknown or binary),
	// cut at a line boundary when Truncated; Added and Removed count the
	// whole change.
	Diff      string `json:"diff,omitempty"`
	Added     int    `json:"added,omitempty"`
	Removed   int    `json:"removed,omitempty"`
	Binary    bool   `json:"binary,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	// NotCompared says why the file is named without a diff, for people:
	// "larger than 50 MiB" (the workspace snapshot leaves such files out).
	NotCompared string `json:"not_compared,omitempty"`
	// ToolCallID ties the change to the tool call that made it (its card).
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Source says where the change was learnt: SourceAgent (the agent's
	// own edit payload or file write) or SourceWorkspace (the workspace
	// snapshot taken around the run; the run's net change of that file).
	Source string `json:"source,omitempty"`
}

// Sources of a FileChanged.
const (
	SourceAgent     = "agent"
	SourceWorkspace = "workspace"
)

// ApprovalOption is one button the agent offers.
type ApprovalOption struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	// Kind is allow_once, allow_always, reject_once or reject_always (ACP).
	Kind string `json:"kind,omitempty"`
}

// ApprovalRequested asks the person to allow or deny an action. Adapters
// fill it with everything known about the tool call, not only what the
// request itself carries: what is shown is what is approved
// (docs/ARCHITECTURE.md §`approval.requested`).
type ApprovalRequested struct {
	ApprovalID  string `json:"approval_id"`
	ToolCallID  string `json:"tool_call_id,omitempty"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// Command is the command line that will run, an argv shell-quoted.
	Command string `json:"command,omitempty"`
	// Kind is the tool's kind (read, edit, execute, …) where known.
	Kind string `json:"kind,omitempty"`
	// Locations are the files the call touches.
	Locations []string `json:"locations,omitempty"`
	// Diff is the unified diff of an edit that is asked for.
	Diff string `json:"diff,omitempty"`
	// Input is the tool's arguments (JSON) when no command says it.
	Input any `json:"input,omitempty"`
	// Unexplained: the agent said nothing a person could judge; the card
	// says so and its Allow needs a second click.
	Unexplained bool             `json:"unexplained,omitempty"`
	Options     []ApprovalOption `json:"options"`
}

// ApprovalResolved records the answer; committed before the agent is told.
type ApprovalResolved struct {
	ApprovalID string `json:"approval_id"`
	Choice     string `json:"choice"`
	By         string `json:"by,omitempty"` // user, notification, timeout, cancel
	// NextPending names the oldest approval of the run still waiting once
	// this one is answered (an agent may ask again before the first is
	// answered): the run then waits for it
	// (docs/ARCHITECTURE.md §Run state machine).
	NextPending string `json:"next_pending,omitempty"`
}

// ClarifyRequested asks the person a question.
type ClarifyRequested struct {
	ClarifyID string   `json:"clarify_id"`
	Question  string   `json:"question"`
	Choices   []string `json:"choices,omitempty"`
}

// ClarifyResolved records the answer; committed before the agent is told.
type ClarifyResolved struct {
	ClarifyID string `json:"clarify_id"`
	Answer    string `json:"answer"`
}

// Command is a slash command the agent offers.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// CommandsUpdated replaces the list of available commands.
type CommandsUpdated struct {
	Commands []Command `json:"commands"`
}

// ModeUpdated reports the agent's current mode.
type ModeUpdated struct {
	Mode string `json:"mode"`
}

// ModelUpdated reports the model now in use and, where the agent says,
// the models it offers (the session header's picker).
type ModelUpdated struct {
	Model     string        `json:"model"`
	Available []ModelOption `json:"available,omitempty"`
	// By is "user" when a person chose the model (a set-model control):
	// the choice is then stored on the session, so a fresh agent for its
	// next run starts on it too. An agent's own report leaves it.
	By string `json:"by,omitempty"`
	// Defaults marks a new session's model and models as the agent
	// reported them (ACP session/new's models): the journal remembers them
	// per agent for the model picker before a session's first run
	// (docs/ARCHITECTURE.md §Session config options).
	Defaults bool `json:"defaults,omitempty"`
}

// AgentDefaults is what a new session of an agent last reported on this
// machine: its settings, model and models (docs/ARCHITECTURE.md §Session
// config options).
type AgentDefaults struct {
	Options []ConfigOption `json:"options"`
	Model   string         `json:"model,omitempty"`
	Models  []ModelOption  `json:"models"`
}

// ModelOption is one model an agent offers.
type ModelOption struct {
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// ConfigUpdated is the whole set of the agent's session settings as it
// reports them (ACP configOptions, and the older modes as one "mode"
// selector), each by its own name, for the session header
// (docs/ARCHITECTURE.md §Session config options). A model selector is
// also reported as model.updated, so the model picker drives it.
type ConfigUpdated struct {
	Options []ConfigOption `json:"options"`
	// Defaults marks the settings of a new session as the agent reported
	// them (ACP session/new's answer), before any choice was applied: the
	// journal remembers them per agent, so a session shows them before its
	// first run (docs/ARCHITECTURE.md §Session config options).
	Defaults bool `json:"defaults,omitempty"`
	// Chosen are choices the session keeps for its next runs (option id →
	// value): a person's choice, or "" to drop one the agent no longer
	// offers. Never a model selector (the model is kept as the model).
	Chosen map[string]string `json:"chosen,omitempty"`
}

// ConfigOption is one setting: a selector or a switch.
type ConfigOption struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Category is model, mode, thought_level or the agent's own word.
	Category string `json:"category,omitempty"`
	// Type is "select" or "boolean".
	Type string `json:"type"`
	// Current is the selected value's id, or "true"/"false".
	Current string        `json:"current"`
	Values  []ConfigValue `json:"values,omitempty"`
}

// ConfigValue is one choice of a selector.
type ConfigValue struct {
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// TitleUpdated gives the session a title.
type TitleUpdated struct {
	Title string `json:"title"`
}

// Usage counts tokens and cost (docs/ARCHITECTURE.md §Usage).
// InputTokens counts every prompt token, cache reads (CachedTokens) and
// cache writes (CacheWriteTokens) included.
type Usage struct {
	InputTokens      int64   `json:"input_tokens,omitempty"`
	OutputTokens     int64   `json:"output_tokens,omitempty"`
	ReasoningTokens  int64   `json:"reasoning_tokens,omitempty"`
	CachedTokens     int64   `json:"cached_tokens,omitempty"`
	CacheWriteTokens int64   `json:"cache_write_tokens,omitempty"`
	CostUSD          float64 `json:"cost_usd,omitempty"`
	// CostSource says where CostUSD came from: "agent", or "prices
	// YYYY-MM-DD" (the shipped price table's date); empty with no cost is
	// "no price".
	CostSource string `json:"cost_source,omitempty"`
	// Model is the model the tokens were spent on, where the agent says.
	Model string `json:"model,omitempty"`
	// ContextTokens and ContextWindow say how full the model's context is
	// (ACP usage_update: used / size).
	ContextTokens int64 `json:"context_tokens,omitempty"`
	ContextWindow int64 `json:"context_window,omitempty"`
	// Quota is a rate-limit window as the agent reported it (Codex
	// account/rateLimits, Claude Code rate_limit_event), on a usage.updated
	// of its own (docs/ARCHITECTURE.md §Usage).
	Quota *Quota `json:"quota,omitempty"`
}

// Quota is one vendor's rate-limit window at the time of the event.
type Quota struct {
	Vendor string `json:"vendor"` // "codex", "claude"
	// Window names it: "five_hour", "seven_day", "primary", "secondary"…
	Window        string `json:"window"`
	WindowMinutes int64  `json:"window_minutes,omitempty"`
	// UsedPercent is nil when the agent gave no figure (Claude Code's
	// event often says only allowed or rejected).
	UsedPercent *float64 `json:"used_percent,omitempty"`
	ResetsAt    int64    `json:"resets_at,omitempty"` // unix seconds
	Limited     bool     `json:"limited,omitempty"`   // the limit is reached
}

// ErrorInfo is the payload of "error": a safe message for people.
type ErrorInfo struct {
	Message string    `json:"message"`
	Code    ErrorCode `json:"code,omitempty"`
	// Detail is extra diagnostic text (e.g. the tail of a log), redacted.
	Detail string `json:"detail,omitempty"`
}

// Notice is the payload of "notice": a sentence for people, kept in the
// transcript.
type Notice struct {
	Message string `json:"message"`
}

// Done is the payload of the one terminal event of every run.
type Done struct {
	Status     Status `json:"status"`
	Error      string `json:"error,omitempty"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	Usage      *Usage `json:"usage,omitempty"`
	DurationMs int64  `json:"duration_ms,omitempty"`
	// StopReason is the agent's own reason (end_turn, max_tokens, refusal…).
	StopReason string `json:"stop_reason,omitempty"`
}

// Compacted stands in for a terminal run's compacted token-level events.
type Compacted struct {
	FromSeq   int64  `json:"from_seq"`
	ToSeq     int64  `json:"to_seq"`
	Text      string `json:"text,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
	Events    int    `json:"events"`
	// Lost: the range stands for events that were shown live but are no
	// longer in the journal (a damaged write-ahead log lost their commit);
	// recovery wrote it so that no seq a client may hold is used again.
	Lost bool `json:"lost,omitempty"`
}

// PayloadOf maps each known event type to a zero value of its payload
// struct: the frontend's fold is tested against these field names
// (testdata/payloads.json; docs/ARCHITECTURE.md §Events).
var PayloadOf = map[EventType]any{
	EventRunStarted:       RunStarted{},
	EventStatus:           StatusChanged{},
	EventMessageUser:      MessageUser{},
	EventTokenDelta:       TextDelta{},
	EventReasoningDelta:   TextDelta{},
	EventReasoningDone:    TextDone{},
	EventProgress:         Progress{},
	EventPlanUpdated:      PlanUpdated{},
	EventToolStarted:      ToolStarted{},
	EventToolUpdated:      ToolUpdated{},
	EventToolDone:         ToolDone{},
	EventFileChanged:      FileChanged{},
	EventApprovalRequest:  ApprovalRequested{},
	EventApprovalResolved: ApprovalResolved{},
	EventClarifyRequest:   ClarifyRequested{},
	EventClarifyResolved:  ClarifyResolved{},
	EventCommandsUpdated:  CommandsUpdated{},
	EventModeUpdated:      ModeUpdated{},
	EventModelUpdated:     ModelUpdated{},
	EventConfigUpdated:    ConfigUpdated{},
	EventTitleUpdated:     TitleUpdated{},
	EventUsageUpdated:     Usage{},
	EventUsageFinal:       Usage{},
	EventError:            ErrorInfo{},
	EventNotice:           Notice{},
	EventDone:             Done{},
	EventCompacted:        Compacted{},
}
