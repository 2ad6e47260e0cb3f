package acp

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Out is one normalized event produced by the mapper.
type Out struct {
	Type    run.EventType
	Payload any
}

// Mapper turns one turn's ACP session/update payloads into normalized
// events. It is deterministic and does no I/O; its only state is what ACP
// leaves implicit: the open reasoning block (ACP has no "thought ended"
// update) and which tool calls are open. Not safe for concurrent use.
type Mapper struct {
	// Workspace makes the paths of diffs relative (file.changed).
	Workspace string
	// Terminal returns the output of a client-run terminal (terminal/*,
	// run by Hermes Desk itself) so the card of the tool call that embeds
	// it shows it; nil: none are known.
	Terminal  func(terminalID string) (string, bool)
	thought   strings.Builder
	inThought bool
	tools     map[string]*toolState
	toolOrder []string
	Unknown   map[string]int // update kinds we do not know, by kind
	Malformed int            // updates that did not decode
	Ignored   int            // known kinds with nothing to show (user echo)
}

type toolState struct {
	done   bool
	denied bool
	info   toolInfo // everything said about the call so far
	input  string   // the input last shown on its card (JSON)
}

// maxThought caps one assembled reasoning block; the deltas are all
// emitted, only reasoning.done's copy is clipped.
const maxThought = 1 << 20

// NewMapper returns a mapper for one turn.
func NewMapper() *Mapper {
	return &Mapper{tools: map[string]*toolState{}, Unknown: map[string]int{}}
}

// wireUpdate is the union of the session/update variants we read. Decoded
// leniently by hand rather than through the SDK's strict unions, so an
// agent's extra fields or a newer protocol's kinds never lose the frame.
type wireUpdate struct {
	Kind              string          `json:"sessionUpdate"`
	Content           json.RawMessage `json:"content"`
	ToolCallID        string          `json:"toolCallId"`
	Title             *string         `json:"title"`
	ToolKind          string          `json:"kind"`
	Status            string          `json:"status"`
	RawInput          json.RawMessage `json:"rawInput"`
	RawOutput         json.RawMessage `json:"rawOutput"`
	Locations         []wireLocation  `json:"locations"`
	Entries           []wirePlanEntry `json:"entries"`
	AvailableCommands []wireCommand   `json:"availableCommands"`
	CurrentModeID     string          `json:"currentModeId"`
	Used              int64           `json:"used"`
	Size              int64           `json:"size"`
	Cost              *struct {
		Amount   float64 `json:"amount"`
		Currency string  `json:"currency"`
	} `json:"cost"`
}

type wireLocation struct {
	Path string `json:"path"`
}

type wirePlanEntry struct {
	Content  string `json:"content"`
	Status   string `json:"status"`
	Priority string `json:"priority"`
}

type wireCommand struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// wireBlock is an ACP ContentBlock.
type wireBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// wireToolContent is an ACP ToolCallContent.
type wireToolContent struct {
	Type       string          `json:"type"` // content, diff, terminal
	TerminalID string          `json:"terminalId"`
	Content    json.RawMessage `json:"content"`
	Path       string          `json:"path"`
	OldText    *string         `json:"oldText"`
	NewText    *string         `json:"newText"`
}

// Update maps one session/update "update" object.
func (m *Mapper) Update(raw json.RawMessage) []Out {
	var u wireUpdate
	if err := json.Unmarshal(raw, &u); err != nil {
		m.Malformed++
		return nil
	}
	var out []Out
	if u.Kind != "agent_thought_chunk" {
		out = m.endThought(out)
	}
	switch u.Kind {
	case "agent_message_chunk":
		if t, ok := blockText(u.Content); ok && t != "" {
			out = append(out, Out{run.EventTokenDelta, run.TextDelta{Text: t}})
		} else if !ok {
			m.Malformed++
		}
	case "agent_thought_chunk":
		if t, ok := blockText(u.Content); ok && t != "" {
			m.inThought = true
			if m.thought.Len() < maxThought {
				m.thought.WriteString(t)
			}
			out = append(out, Out{run.EventReasoningDelta, run.TextDelta{Text: t}})
		} else if !ok {
			m.Malformed++
		}
	case "tool_call":
		if u.ToolCallID == "" {
			m.Malformed++
			break
		}
		if _, seen := m.tools[u.ToolCallID]; seen {
			out = m.toolUpdate(out, u) // some agents re-send tool_call to update it
			break
		}
		out = m.toolStart(out, u)
		if isFinal(u.Status) {
			out = m.toolUpdate(out, u)
		}
	case "tool_call_update":
		if u.ToolCallID == "" {
			m.Malformed++
			break
		}
		if _, seen := m.tools[u.ToolCallID]; !seen {
			// Gemini updates tool calls it never announced (after a
			// permission prompt); open the card so it can be closed.
			out = m.toolStart(out, u)
		}
		out = m.toolUpdate(out, u)
	case "plan":
		entries := make([]run.PlanEntry, 0, len(u.Entries))
		for _, e := range u.Entries {
			entries = append(entries, run.PlanEntry{Content: e.Content, Status: e.Status, Priority: e.Priority})
		}
		out = append(out, Out{run.EventPlanUpdated, run.PlanUpdated{Entries: entries}})
	case "available_commands_update":
		cmds := make([]run.Command, 0, len(u.AvailableCommands))
		for _, c := range u.AvailableCommands {
			cmds = append(cmds, run.Command{Name: c.Name, Description: c.Description})
		}
		out = append(out, Out{run.EventCommandsUpdated, run.CommandsUpdated{Commands: cmds}})
	case "current_mode_update":
		out = append(out, Out{run.EventModeUpdated, run.ModeUpdated{Mode: u.CurrentModeID}})
	case "session_info_update":
		if u.Title != nil && *u.Title != "" {
			out = append(out, Out{run.EventTitleUpdated, run.TitleUpdated{Title: *u.Title}})
		} else {
			m.Ignored++
		}
	case "usage_update":
		us := run.Usage{ContextTokens: u.Used, ContextWindow: u.Size}
		if u.Cost != nil && strings.EqualFold(u.Cost.Currency, "USD") {
			us.CostUSD, us.CostSource = u.Cost.Amount, "agent"
		}
		out = append(out, Out{run.EventUsageUpdated, us})
	case "config_option_update":
		if s, ok := settingsUpdate(raw); ok {
			out = append(out, settingsEvents(s)...)
		} else {
			m.Malformed++
		}
	case "user_message_chunk":
		m.Ignored++
	default:
		m.Unknown[u.Kind]++
	}
	return out
}

func (m *Mapper) toolStart(out []Out, u wireUpdate) []Out {
	st := &toolState{info: toolInfo{}.with(u)}
	m.tools[u.ToolCallID] = st
	m.toolOrder = append(m.toolOrder, u.ToolCallID)
	title := ""
	if u.Title != nil {
		title = *u.Title
	}
	var input any
	if hasInput(u.RawInput) {
		input = json.RawMessage(u.RawInput)
		st.input = string(u.RawInput)
	}
	return append(out, Out{run.EventToolStarted, run.ToolStarted{
		ToolCallID: u.ToolCallID, Name: toolName(title, u.ToolKind), Title: title,
		Kind: u.ToolKind, Input: input, Locations: locationPaths(u.Locations),
	}})
}

// toolName: ACP tool calls carry a title and a kind but no name; the title
// is what agents intend people to read.
func toolName(title, kind string) string {
	switch {
	case title != "":
		return title
	case kind != "":
		return kind
	}
	return "tool"
}

func (m *Mapper) toolUpdate(out []Out, u wireUpdate) []Out {
	st := m.tools[u.ToolCallID]
	if st.done {
		m.Ignored++
		return out
	}
	st.info = st.info.with(u)
	// Input that arrives after the card opened (OpenCode, the Claude
	// wrappers) replaces the card's input, so it never shows {}.
	var input any
	if hasInput(u.RawInput) && string(u.RawInput) != st.input {
		input, st.input = json.RawMessage(u.RawInput), string(u.RawInput)
	}
	text := toolText(u.Content, u.RawOutput)
	if isFinal(u.Status) {
		if input != nil {
			out = append(out, Out{run.EventToolUpdated, run.ToolUpdated{ToolCallID: u.ToolCallID, Input: input}})
		}
		text = joinText(text, m.terminalText(st.info.Terminals))
		st.done = true
		d := run.ToolDone{ToolCallID: u.ToolCallID, Status: u.Status, Output: text}
		if u.Status == "failed" {
			d.Error = firstLine(text)
		}
		out = append(out, Out{run.EventToolDone, d})
		if u.Status == "completed" {
			for _, fc := range diffChanges(m.Workspace, u.ToolCallID, u.Content) {
				out = append(out, Out{run.EventFileChanged, fc})
			}
		}
		return out
	}
	title := ""
	if u.Title != nil {
		title = *u.Title
	}
	if title == "" && u.Status == "" && text == "" && input == nil {
		m.Ignored++
		return out
	}
	return append(out, Out{run.EventToolUpdated, run.ToolUpdated{ToolCallID: u.ToolCallID, Title: title, Status: u.Status, Output: text, Input: input}})
}

// terminalText is the output of the client-run terminals a call embeds.
func (m *Mapper) terminalText(ids []string) string {
	if m.Terminal == nil {
		return ""
	}
	var parts []string
	for _, id := range ids {
		if t, ok := m.Terminal(id); ok && t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// joinText appends extra to text unless text already holds it.
func joinText(text, extra string) string {
	switch {
	case extra == "" || strings.Contains(text, extra):
		return text
	case text == "":
		return extra
	}
	return text + "\n" + extra
}

// diffChanges maps a tool call's diff content (ACP ToolCallContent
// "diff": path, oldText, newText) to file.changed payloads on its card.
func diffChanges(workspace, toolCallID string, content json.RawMessage) []run.FileChanged {
	var out []run.FileChanged
	for _, it := range contentItems(content) {
		if it.Type != "diff" || it.Path == "" || it.NewText == nil {
			continue
		}
		old := ""
		if it.OldText != nil {
			old = *it.OldText
		}
		fc := changes.Text(relPath(workspace, it.Path), old, *it.NewText, it.OldText == nil || old == "" && *it.NewText != "", false)
		fc.ToolCallID = toolCallID
		out = append(out, fc)
	}
	return out
}

// relPath makes p relative to the workspace when it lies inside it.
func relPath(workspace, p string) string {
	if workspace == "" || !filepath.IsAbs(p) {
		return p
	}
	if r, err := filepath.Rel(workspace, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return p
}

// ToolSeen opens a tool card for a permission prompt's tool call when the
// agent has not announced it (Gemini asks before it announces), and adds
// what the prompt says to what is known of an announced one.
func (m *Mapper) ToolSeen(toolCall json.RawMessage) []Out {
	var u wireUpdate
	if err := json.Unmarshal(toolCall, &u); err != nil || u.ToolCallID == "" {
		return nil
	}
	if st, seen := m.tools[u.ToolCallID]; seen {
		st.info = st.info.with(u)
		return nil
	}
	return m.toolStart(m.endThought(nil), u)
}

// Known is everything said so far about a tool call of this turn (empty
// for one never announced); approvalRequested merges it into a prompt.
func (m *Mapper) Known(toolCallID string) toolInfo {
	if st, ok := m.tools[toolCallID]; ok {
		return st.info
	}
	return toolInfo{}
}

// Denied marks a tool call whose permission was refused, so Finish closes
// it as "denied" if the agent does not.
func (m *Mapper) Denied(toolCallID string) {
	if st, ok := m.tools[toolCallID]; ok {
		st.denied = true
	}
}

// Finish ends the turn: it closes an open reasoning block and every tool
// call the agent left open, so each tool.started has its tool.done.
func (m *Mapper) Finish(cancelled bool) []Out {
	out := m.endThought(nil)
	for _, id := range m.toolOrder {
		st := m.tools[id]
		if st.done {
			continue
		}
		st.done = true
		d := run.ToolDone{ToolCallID: id}
		switch {
		case st.denied:
			d.Status = "denied"
		case cancelled:
			d.Status = "cancelled"
		default:
			d.Status, d.Error = "failed", "the agent ended the turn without reporting a result"
		}
		out = append(out, Out{run.EventToolDone, d})
	}
	return out
}

func (m *Mapper) endThought(out []Out) []Out {
	if !m.inThought {
		return out
	}
	m.inThought = false
	text := m.thought.String()
	m.thought.Reset()
	return append(out, Out{run.EventReasoningDone, run.TextDone{Text: text}})
}

// UnknownKinds lists the unknown kinds seen, sorted (for logs).
func (m *Mapper) UnknownKinds() []string {
	kinds := make([]string, 0, len(m.Unknown))
	for k := range m.Unknown {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

func isFinal(status string) bool { return status == "completed" || status == "failed" }

// blockText reads a ContentBlock; ok is false when it does not decode.
// Non-text blocks (images, audio) have no text and are not an error.
func blockText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	var b wireBlock
	if err := json.Unmarshal(raw, &b); err != nil {
		return "", false
	}
	switch b.Type {
	case "text":
		return b.Text, true
	case "resource_link":
		return "[" + orStr(b.Name, b.URI) + "](" + b.URI + ")", true
	}
	return "", true
}

// toolText flattens tool call content into readable output: text and
// resource blocks as they are, diffs as a one-line note. rawOutput is used
// when the content says nothing: a string as is, codex-acp's
// formatted_output, an array (claude-code-acp) item by item, any other
// value as JSON.
func toolText(content, rawOutput json.RawMessage) string {
	parts := contentTexts(content, true)
	if len(parts) == 0 && len(rawOutput) > 0 {
		if t := rawText(rawOutput, 0); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// textOnly is the content's text blocks, without the diff notes.
func textOnly(content json.RawMessage) string {
	return strings.Join(contentTexts(content, false), "\n")
}

func contentTexts(content json.RawMessage, diffNotes bool) []string {
	var parts []string
	for _, it := range contentItems(content) {
		switch it.Type {
		case "content":
			if t := toolBlockText(it.Content); t != "" {
				parts = append(parts, t)
			}
		case "diff":
			if !diffNotes {
				continue
			}
			if it.OldText == nil || *it.OldText == "" {
				parts = append(parts, "Created "+it.Path)
			} else {
				parts = append(parts, "Edited "+it.Path)
			}
		}
	}
	return parts
}

// toolBlockText reads a content block on a tool card: text, a link, an
// embedded resource's text, or a note naming an image or audio.
func toolBlockText(raw json.RawMessage) string {
	if t, ok := blockText(raw); ok && t != "" {
		return t
	}
	var b struct {
		Type     string `json:"type"`
		MimeType string `json:"mimeType"`
		Resource struct {
			URI  string `json:"uri"`
			Text string `json:"text"`
		} `json:"resource"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return ""
	}
	switch b.Type {
	case "resource":
		return orStr(b.Resource.Text, b.Resource.URI)
	case "image", "audio":
		if b.MimeType != "" {
			return "[" + b.Type + " " + b.MimeType + "]"
		}
		return "[" + b.Type + "]"
	}
	return ""
}

// maxRawDepth bounds rawText's recursion over nested arrays.
const maxRawDepth = 8

// rawText renders a tool's rawOutput for its card.
func rawText(raw json.RawMessage, depth int) string {
	var v any
	if json.Unmarshal(raw, &v) != nil || v == nil {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case []any:
		if depth >= maxRawDepth {
			break
		}
		var parts []string
		for _, e := range x {
			b, _ := json.Marshal(e)
			if t := rawItemText(b, depth+1); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n")
	case map[string]any:
		if t := toolBlockText(raw); t != "" {
			return t
		}
		for _, k := range []string{"formatted_output", "aggregated_output", "output"} {
			if s, ok := x[k].(string); ok && s != "" {
				return s
			}
		}
		var std []string
		for _, k := range []string{"stdout", "stderr"} {
			if s, ok := x[k].(string); ok && s != "" {
				std = append(std, s)
			}
		}
		if len(std) > 0 {
			return strings.Join(std, "\n")
		}
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ""
	}
	return string(b)
}

// rawItemText is one element of a rawOutput array: a content block's
// text, or the element rendered like rawOutput itself.
func rawItemText(raw json.RawMessage, depth int) string {
	if t := toolBlockText(raw); t != "" {
		return t
	}
	return rawText(raw, depth)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func orStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
