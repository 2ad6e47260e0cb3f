package demoagent

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// A Scenario is a script the demo agent plays for one prompt. Scenarios are
// data (scenarios/*.json, embedded) so a test can read what an agent will do
// next to what it asserts.
type Scenario struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Steps       []Step `json:"steps"`
}

// Step is one action. Exactly one action field is set; Chunk and DelayMs
// modify Text and Thought.
type Step struct {
	// Text streams agent_message_chunk updates; Thought streams
	// agent_thought_chunk. Both expand {prompt}, {answer}, {cwd}, {session},
	// {tool_output}, {i} and {model}.
	Text    string `json:"text,omitempty"`
	Thought string `json:"thought,omitempty"`
	// Chunk splits Text/Thought into pieces of this many runes (0: one piece).
	Chunk int `json:"chunk,omitempty"`
	// DelayMs pauses after each piece.
	DelayMs int `json:"delay_ms,omitempty"`

	Tool       *ToolStep       `json:"tool,omitempty"`
	Plan       []PlanItem      `json:"plan,omitempty"`
	Commands   []CommandItem   `json:"commands,omitempty"`
	Mode       string          `json:"mode,omitempty"`
	Title      string          `json:"title,omitempty"`
	Permission *PermissionStep `json:"permission,omitempty"`
	Clarify    *ClarifyStep    `json:"clarify,omitempty"`
	SleepMs    int             `json:"sleep_ms,omitempty"`
	// Stderr writes a line to the agent's stderr.
	Stderr string `json:"stderr,omitempty"`
	// Exit ends the process at once with this code (a crash mid-turn).
	Exit *int `json:"exit,omitempty"`
	// Raw lines go to stdout verbatim, between well-formed frames.
	Raw []string `json:"raw,omitempty"`
	// Fail makes session/prompt answer with this JSON-RPC error.
	Fail *FailStep `json:"fail,omitempty"`
	// RateLimit answers like an agent whose model server said 429 with a
	// reset: until the session's window passes, session/prompt fails with
	// "429 Too Many Requests … retry-after"; after it, the steps go on.
	RateLimit *RateLimitStep `json:"rate_limit,omitempty"`
	// Burst writes Count identical message chunks as fast as the pipe takes
	// them (the flood scenario).
	Burst *BurstStep `json:"burst,omitempty"`
	// Repeat plays Steps Count times; {i} is the 1-based iteration.
	Repeat *RepeatStep `json:"repeat,omitempty"`
	// IgnoreSIGTERM makes the process ignore SIGTERM from here on.
	IgnoreSIGTERM bool `json:"ignore_sigterm,omitempty"`
	// IgnoreEOF keeps the process alive after the client closes stdin.
	IgnoreEOF bool `json:"ignore_eof,omitempty"`
	// Recall streams what the session remembers of earlier turns.
	Recall bool `json:"recall,omitempty"`
	// Usage is reported in the prompt response.
	Usage *UsageStep `json:"usage,omitempty"`
}

// ToolStep is a tool call: started, optional progress updates, a file
// operation through the client, then completed or failed.
type ToolStep struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Kind      string   `json:"kind,omitempty"`
	Input     any      `json:"input,omitempty"`
	Locations []string `json:"locations,omitempty"`
	Progress  []string `json:"progress,omitempty"`
	// ProgressDelayMs pauses after each progress update.
	ProgressDelayMs int `json:"progress_delay_ms,omitempty"`
	// Write writes a file through the client's fs/write_text_file; a
	// relative path is taken from the session's cwd.
	Write *FileWrite `json:"write,omitempty"`
	// Read reads a file through fs/read_text_file; its content becomes the
	// output.
	Read string `json:"read,omitempty"`
	// Run runs a command in a client-side terminal (terminal/create, wait,
	// output, release); its output and exit code become the output.
	Run    *RunCommand `json:"run,omitempty"`
	Output string      `json:"output,omitempty"`
	// Status is the final status: completed (default) or failed.
	Status string `json:"status,omitempty"`
}

// RunCommand is a command for a client-side terminal.
type RunCommand struct {
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
}

// FileWrite is a file the tool writes.
type FileWrite struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// PlanItem is one plan entry.
type PlanItem struct {
	Content  string `json:"content"`
	Status   string `json:"status"`
	Priority string `json:"priority,omitempty"`
}

// CommandItem is one advertised slash command.
type CommandItem struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// PermissionStep asks session/request_permission and branches on the answer.
// A cancelled outcome ends the turn with stopReason "cancelled".
type PermissionStep struct {
	ToolCallID string       `json:"tool_call_id"`
	Title      string       `json:"title"`
	Kind       string       `json:"kind,omitempty"`
	Command    string       `json:"command,omitempty"`
	Options    []OptionItem `json:"options,omitempty"`
	// Bare asks naming only the tool call id, as Mistral Vibe does for a
	// call it announced just before (title, kind and command left out).
	Bare     bool   `json:"bare,omitempty"`
	OnAllow  []Step `json:"on_allow"`
	OnReject []Step `json:"on_reject"`
}

// OptionItem is one permission option.
type OptionItem struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// ClarifyStep asks a question through the _hermesdesk/clarify extension;
// the answer is {answer} in Then.
type ClarifyStep struct {
	Question string   `json:"question"`
	Choices  []string `json:"choices,omitempty"`
	Then     []Step   `json:"then"`
}

// FailStep is a JSON-RPC error for session/prompt.
type FailStep struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// RateLimitStep opens a rate-limit window of ResetAfterMs on the session's
// first prompt that reaches it (kept with the session, so a resumed
// process sees the same window).
type RateLimitStep struct {
	ResetAfterMs int `json:"reset_after_ms"`
}

// RepeatStep loops. IgnoreCancel keeps going after session/cancel (the
// "hang" scenario, which must be killed).
type RepeatStep struct {
	Count        int    `json:"count"`
	IgnoreCancel bool   `json:"ignore_cancel,omitempty"`
	Steps        []Step `json:"steps"`
}

// BurstStep is a flood of one chunk. The frame is encoded once and written
// Count times: the SDK spends ~25 µs encoding each update, which would make
// the agent, not the client under test, the bottleneck.
type BurstStep struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
}

// UsageStep is token usage reported with the prompt response.
type UsageStep struct {
	InputTokens   int `json:"input_tokens"`
	OutputTokens  int `json:"output_tokens"`
	ThoughtTokens int `json:"thought_tokens,omitempty"`
}

//go:embed scenarios/*.json
var scenarioFS embed.FS

// Scenarios returns the built-in scenarios and those in extra (*.json at
// its root; nil: none) by name. A name in extra may not repeat a built-in
// one: the test kit adds scenarios, it does not change the product's.
func Scenarios(extra fs.FS) (map[string]*Scenario, error) {
	builtin, err := fs.Sub(scenarioFS, "scenarios")
	if err != nil {
		return nil, err
	}
	out := map[string]*Scenario{}
	if err := loadScenarios(builtin, out); err != nil {
		return nil, err
	}
	if extra != nil {
		if err := loadScenarios(extra, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// loadScenarios adds every *.json of fsys to out.
func loadScenarios(fsys fs.FS, out map[string]*Scenario) error {
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return err
	}
	for _, name := range files {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		var s Scenario
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields() // a typo in a scenario must fail loudly
		if err := dec.Decode(&s); err != nil {
			return fmt.Errorf("scenario %s: %w", name, err)
		}
		if want := strings.TrimSuffix(name, ".json"); s.Name != want {
			return fmt.Errorf("scenario %s: name %q does not match its file", name, s.Name)
		}
		if err := validateSteps(s.Steps); err != nil {
			return fmt.Errorf("scenario %s: %w", s.Name, err)
		}
		if _, dup := out[s.Name]; dup {
			return fmt.Errorf("scenario %s: the name is taken", s.Name)
		}
		out[s.Name] = &s
	}
	return nil
}

// Names lists the scenario names, sorted.
func Names(m map[string]*Scenario) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func validateSteps(steps []Step) error {
	for i, s := range steps {
		n := 0
		count := func(set bool) {
			if set {
				n++
			}
		}
		count(s.Text != "")
		count(s.Thought != "")
		count(s.Tool != nil)
		count(s.Plan != nil)
		count(s.Commands != nil)
		count(s.Mode != "")
		count(s.Title != "")
		count(s.Permission != nil)
		count(s.Clarify != nil)
		count(s.SleepMs > 0)
		count(s.Stderr != "")
		count(s.Exit != nil)
		count(s.Raw != nil)
		count(s.Fail != nil)
		count(s.RateLimit != nil)
		count(s.Repeat != nil)
		count(s.Burst != nil)
		count(s.IgnoreSIGTERM)
		count(s.IgnoreEOF)
		count(s.Recall)
		count(s.Usage != nil)
		if n != 1 {
			return fmt.Errorf("step %d has %d actions; want exactly 1", i, n)
		}
		var nested [][]Step
		switch {
		case s.Permission != nil:
			nested = append(nested, s.Permission.OnAllow, s.Permission.OnReject)
		case s.Clarify != nil:
			nested = append(nested, s.Clarify.Then)
		case s.Repeat != nil:
			if s.Repeat.Count <= 0 {
				return fmt.Errorf("step %d: repeat count must be positive", i)
			}
			nested = append(nested, s.Repeat.Steps)
		case s.Tool != nil:
			if s.Tool.ID == "" || s.Tool.Title == "" {
				return fmt.Errorf("step %d: tool needs id and title", i)
			}
		}
		for _, ns := range nested {
			if err := validateSteps(ns); err != nil {
				return fmt.Errorf("step %d: %w", i, err)
			}
		}
	}
	return nil
}
