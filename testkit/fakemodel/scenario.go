package fakemodel

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Scenario is a scripted answer. Step i is played when i tool results
// follow the user message that selected the scenario, so a tool call and
// the answer after its result are chosen from the request's content alone —
// side calls, retries and fresh connections cannot throw it off.
type Scenario struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Steps       []Step `json:"steps"`
}

// Step is one model reply.
type Step struct {
	Reasoning string    `json:"reasoning,omitempty"`
	Text      string    `json:"text,omitempty"`
	Repeat    int       `json:"repeat,omitempty"`   // Text is sent this many times (slow streams)
	DelayMs   int       `json:"delay_ms,omitempty"` // pause between streamed chunks
	Tool      *ToolSpec `json:"tool,omitempty"`
	Error     *ErrSpec  `json:"error,omitempty"`
}

// ToolSpec is an abstract tool call; the server picks the concrete tool from
// the ones the agent offers (Bash, exec_command, run_shell_command, …).
type ToolSpec struct {
	Kind    string `json:"kind"` // shell, read, write, edit, delete (see edit.go) or todo (todo.go)
	Command string `json:"command,omitempty"`
	Path    string `json:"path,omitempty"`
	Content string `json:"content,omitempty"` // write: the whole new file; todo: the plan entry
	Old     string `json:"old,omitempty"`     // edit: the text replaced
	New     string `json:"new,omitempty"`     // edit: its replacement
}

// ErrSpec makes the API answer with an HTTP error.
type ErrSpec struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

//go:embed scenarios/*.json
var scenarioFS embed.FS

// SideAnswer answers a tool-less request made while a scenario's step
// wants a tool: agents ask such side questions (session titles) over the
// conversation, and a short phrase fits them all.
const SideAnswer = "Fake title"

// DefaultScenario plays when no message carries a marker.
const DefaultScenario = "text"

var markerRE = regexp.MustCompile(`\[scenario:([a-z0-9_-]+)\]`)

// Scenarios returns the embedded scenarios by name.
func Scenarios() (map[string]Scenario, error) {
	out := map[string]Scenario{}
	entries, err := fs.Glob(scenarioFS, "scenarios/*.json")
	if err != nil {
		return nil, fmt.Errorf("list scenarios: %w", err)
	}
	for _, name := range entries {
		b, err := scenarioFS.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		var s Scenario
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		if s.Name == "" || len(s.Steps) == 0 {
			return nil, fmt.Errorf("scenario %s: name and steps are required", name)
		}
		out[s.Name] = s
	}
	return out, nil
}

// Role of a normalized message.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool" // a tool result fed back to the model
)

// Message is one entry of a request's conversation, normalized across APIs.
type Message struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// Conversation is what a request asked, normalized across APIs.
type Conversation struct {
	Messages []Message `json:"messages"`
	Tools    []string  `json:"tools,omitempty"`
	// Freeform names the offered tools that take raw text rather than JSON
	// arguments (OpenAI custom tools, such as Codex's apply_patch).
	Freeform []string `json:"freeform,omitempty"`
	// ToolSchemas holds each offered tool's parameters (a JSON schema) by
	// name, for picking the shell tool by schema (shell.go).
	ToolSchemas map[string]map[string]any `json:"-"`
	// Schema is a JSON response schema (a side query such as Gemini's model
	// router); the reply is then a JSON object, not a scenario.
	Schema map[string]any `json:"schema,omitempty"`
}

// addTool records an offered tool and its parameters' schema (nil when
// the API gives none).
func (c *Conversation) addTool(name string, params map[string]any) {
	c.Tools = append(c.Tools, name)
	if params != nil {
		if c.ToolSchemas == nil {
			c.ToolSchemas = map[string]map[string]any{}
		}
		c.ToolSchemas[name] = params
	}
}

// ToolCall is a concrete call of one offered tool.
type ToolCall struct {
	ID   string         `json:"id"`
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
	// Input is a freeform tool's raw text (then Args is empty).
	Input string `json:"input,omitempty"`
}

// Reply is what the server answers to one request.
type Reply struct {
	Scenario  string
	Step      int
	Reasoning string
	Chunks    []string // text, streamed in this order
	DelayMs   int
	Tool      *ToolCall
	Error     *ErrSpec
}

// Text is the whole answer text.
func (r Reply) Text() string { return strings.Join(r.Chunks, "") }

// Plan chooses the reply to a conversation. It is a pure function of the
// request's content.
func Plan(c Conversation, set map[string]Scenario) Reply {
	if c.Schema != nil {
		b, _ := json.Marshal(fillSchema(c.Schema, 0))
		return Reply{Scenario: "json", Chunks: []string{string(b)}}
	}
	name, at := DefaultScenario, lastIndex(c.Messages, RoleUser)
	for i := len(c.Messages) - 1; i >= 0; i-- {
		m := c.Messages[i]
		if m.Role != RoleUser {
			continue
		}
		if sub := markerRE.FindAllStringSubmatch(m.Text, -1); len(sub) > 0 {
			name, at = sub[len(sub)-1][1], i
			break
		}
	}
	sc, ok := set[name]
	if !ok {
		return Reply{Scenario: name, Error: &ErrSpec{Status: 400, Message: "fake model: unknown scenario " + strconv.Quote(name)}}
	}
	step := 0
	lastTool := ""
	for i := at + 1; i < len(c.Messages); i++ {
		if c.Messages[i].Role == RoleTool {
			step++
			lastTool = c.Messages[i].Text
		}
	}
	idx := min(step, len(sc.Steps)-1)
	st := sc.Steps[idx]
	r := Reply{Scenario: name, Step: idx, Reasoning: st.Reasoning, DelayMs: st.DelayMs, Error: st.Error}
	vars := templateVars(c, lastTool)
	text := expand(st.Text, vars)
	if st.Tool != nil {
		call, ok := chooseTool(*st.Tool, c, name, idx)
		switch {
		case ok:
			r.Tool = &call
		case len(c.Tools) == 0:
			// A request offering no tools at all is an agent's side
			// request (a title, a summary) over the same conversation: a
			// short plain answer, not the turn's tool call.
			text = SideAnswer
		default:
			text = "(the fake model wanted a tool, but none it knows was offered)"
		}
	}
	n := max(st.Repeat, 1)
	for range n {
		r.Chunks = append(r.Chunks, splitWords(text)...)
	}
	return r
}

func lastIndex(ms []Message, role string) int {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == role {
			return i
		}
	}
	return -1
}

func templateVars(c Conversation, lastTool string) map[string]string {
	marked := []string{}
	for _, m := range c.Messages {
		if m.Role != RoleUser {
			continue
		}
		// Agents wrap the user's words in their own context blocks; quote
		// from the marker to the end of its line.
		if loc := markerRE.FindStringIndex(m.Text); loc != nil {
			line, _, _ := strings.Cut(m.Text[loc[0]:], "\n")
			marked = append(marked, strings.TrimSpace(line))
		}
	}
	first := ""
	if len(marked) > 0 {
		first = marked[0]
	}
	return map[string]string{
		"tool_output":  clip(strings.TrimSpace(lastTool), 200),
		"marked_turns": strconv.Itoa(len(marked)),
		"first_marked": clip(first, 200),
	}
}

func expand(s string, vars map[string]string) string {
	for k, v := range vars {
		s = strings.ReplaceAll(s, "{{"+k+"}}", v)
	}
	return s
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// splitWords cuts text into word-sized chunks that concatenate back to it,
// so clients see a real stream of several deltas.
func splitWords(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i-1] == ' ' && s[i] != ' ' {
			out = append(out, s[start:i])
			start = i
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// readTools maps the file-read tools of known agents to their path argument.
var readTools = []struct{ name, arg string }{
	{"Read", "file_path"},      // Claude Code
	{"read_file", "file_path"}, // Gemini CLI (Hermes' read_file takes path, see below)
}

func chooseTool(spec ToolSpec, c Conversation, scenario string, step int) (ToolCall, bool) {
	has := map[string]bool{}
	for _, t := range c.Tools {
		has[t] = true
	}
	id := fmt.Sprintf("call_%s_%d", scenario, step)
	if call, ok := chooseEditTool(&spec, c, has, id); ok {
		return call, true
	}
	switch spec.Kind {
	case "none":
		return ToolCall{}, false
	case "todo":
		return chooseTodo(spec.Content, c, id)
	}
	if spec.Kind == "read" {
		for _, t := range readTools {
			if has[t.name] {
				// Hermes' read_file wants "path"; sending both is harmless
				// for agents that ignore unknown keys and right for Hermes.
				args := map[string]any{t.arg: spec.Path}
				if t.name == "read_file" && has["terminal"] {
					args = map[string]any{"path": spec.Path}
				}
				return ToolCall{ID: id, Name: t.name, Args: args}, true
			}
		}
		spec = ToolSpec{Kind: "shell", Command: "cat " + spec.Path}
	}
	return chooseShell(spec.Command, c, has, id)
}

// fillSchema builds a value matching a JSON schema (OpenAPI-style types as
// Gemini sends them, or JSON Schema's lower-case ones).
func fillSchema(s map[string]any, depth int) any {
	if depth > 8 {
		return nil
	}
	t, _ := s["type"].(string)
	switch strings.ToLower(t) {
	case "string":
		if e, ok := s["enum"].([]any); ok && len(e) > 0 {
			return e[0]
		}
		return "fake"
	case "integer", "number":
		return 1
	case "boolean":
		return false
	case "array":
		return []any{}
	default:
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(map[string]any); ok {
				out[k] = fillSchema(ps, depth+1)
			}
		}
		return out
	}
}
