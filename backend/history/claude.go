package history

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/adapter/claude"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Claude reads Claude Code's transcripts: <root>/projects/<cwd-slug>/<session>.jsonl,
// root ~/.claude or $CLAUDE_CONFIG_DIR. Lines form a tree (uuid/parentUuid;
// a rewind branches it); the conversation is the path to the newest leaf.
// Message lines are the same shape as the CLI's stream-json, so they are
// mapped by the live adapter's own mapper (one of each: tool cards, titles
// and file changes come out the same).
type Claude struct{}

func (Claude) Agent() string { return "claude" }

func (Claude) Root(getenv func(string) string, home string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(home, ".claude")
}

// Discover lists projects/*/*.jsonl; subagents' own files
// (<session>/subagents/*.jsonl) are sidechains, not conversations.
func (Claude) Discover(root string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(root, "projects", "*", "*.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("list Claude Code sessions under %s: %w", root, err)
	}
	sort.Strings(files)
	return files, nil
}

func (Claude) WatchDir(root string) string { return filepath.Join(root, "projects") }

func (Claude) Match(root, path string) bool {
	ok, _ := filepath.Match(filepath.Join(root, "projects", "*", "*.jsonl"), path)
	return ok
}

type claudeLine struct {
	Type          string          `json:"type"`
	Subtype       string          `json:"subtype"`
	UUID          string          `json:"uuid"`
	ParentUUID    string          `json:"parentUuid"`
	LogicalParent string          `json:"logicalParentUuid"` // across a compact boundary
	IsSidechain   bool            `json:"isSidechain"`
	IsMeta        bool            `json:"isMeta"`
	Timestamp     string          `json:"timestamp"`
	SessionID     string          `json:"sessionId"`
	Version       string          `json:"version"`
	Cwd           string          `json:"cwd"`
	Summary       string          `json:"summary"`
	Message       json.RawMessage `json:"message"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
}

type claudeMessage struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Model      string          `json:"model"`
	StopReason string          `json:"stop_reason"`
	Content    json.RawMessage `json:"content"`
	Usage      *struct {
		Input         int64 `json:"input_tokens"`
		Output        int64 `json:"output_tokens"`
		CacheRead     int64 `json:"cache_read_input_tokens"`
		CacheCreation int64 `json:"cache_creation_input_tokens"`
	} `json:"usage"`
}

// parseClaudeLine decodes one line; the fuzz target's entry point.
func parseClaudeLine(b []byte) (claudeLine, error) {
	var l claudeLine
	if err := json.Unmarshal(b, &l); err != nil {
		return l, fmt.Errorf("not a JSON line: %w", err)
	}
	if l.Type == "" {
		return l, fmt.Errorf("line has no type")
	}
	return l, nil
}

func (c Claude) Parse(r io.Reader, file string) (*Session, error) {
	s := &Session{Origin: Origin{Agent: c.Agent(), File: file}}
	var lines []claudeLine
	byID := map[string]int{}
	off, err := eachLine(r, func(k Skipped) { s.Skipped = append(s.Skipped, k) }, func(n int, b []byte) {
		l, err := parseClaudeLine(b)
		if err != nil {
			s.Skipped = append(s.Skipped, Skipped{Line: n, Reason: err.Error()})
			return
		}
		if l.Type == "summary" && s.Title == "" {
			s.Title = titleOf(l.Summary)
		}
		if l.UUID != "" {
			byID[l.UUID] = len(lines)
		}
		lines = append(lines, l)
	})
	s.Offset = off
	if err != nil {
		return s, fmt.Errorf("read Claude Code session %s: %w", file, err)
	}
	path := claudePath(lines, byID)
	m := claude.NewMapper("")
	var t turns
	seenUsage := map[string]bool{}
	for _, l := range path {
		if s.Origin.NativeID == "" {
			s.Origin.NativeID = l.SessionID
		}
		if l.Version != "" {
			s.Origin.Version = l.Version
		}
		if s.Workspace == "" && l.Cwd != "" {
			s.Workspace = l.Cwd
			m.Workspace = l.Cwd
		}
		at := parseTime(l.Timestamp)
		s.touch(at)
		switch l.Type {
		case "user":
			if l.IsMeta {
				continue
			}
			if text, ok := claudeUserText(l.Message); ok {
				if s.Title == "" {
					s.Title = titleOf(text)
				}
				t.start(at, l.UUID, text)
				continue
			}
			mapClaude(&t, m, "user", l)
		case "assistant":
			var msg claudeMessage
			_ = json.Unmarshal(l.Message, &msg)
			if msg.Model != "" && msg.Model != "<synthetic>" {
				s.Model = msg.Model
			}
			if msg.Usage != nil && !seenUsage[msg.ID] {
				seenUsage[msg.ID] = true // one message is written as one line per content block
				t.addUsage(run.Usage{InputTokens: msg.Usage.Input + msg.Usage.CacheRead + msg.Usage.CacheCreation,
					OutputTokens: msg.Usage.Output, CachedTokens: msg.Usage.CacheRead})
			}
			if msg.StopReason != "" {
				t.stop = msg.StopReason
			}
			mapClaude(&t, m, "assistant", l)
		case "system":
			if l.Subtype == "compact_boundary" {
				t.add(run.EventNotice, run.Notice{Message: "Claude Code compacted the conversation here."})
			}
		}
	}
	// The last turn is open while its last answer asks for a tool (or
	// there is no answer yet).
	s.Open = len(t.list) > 0 && (t.stop == "" || t.stop == "tool_use")
	t.end()
	s.Turns = t.list
	if s.Origin.NativeID == "" {
		s.Origin.NativeID = strings.TrimSuffix(filepath.Base(file), ".jsonl")
	}
	return s, nil
}

// claudePath is the conversation: from the newest non-sidechain message
// back through its parents (a compact boundary links on by
// logicalParentUuid), oldest first. Branches left by a rewind are not on it.
func claudePath(lines []claudeLine, byID map[string]int) []claudeLine {
	leaf := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if l := lines[i]; l.UUID != "" && !l.IsSidechain && (l.Type == "user" || l.Type == "assistant") {
			leaf = i
			break
		}
	}
	if leaf < 0 {
		return nil
	}
	idx := treePath(leaf, func(i int) (int, bool) {
		parent := lines[i].ParentUUID
		if parent == "" {
			parent = lines[i].LogicalParent
		}
		j, ok := byID[parent]
		return j, ok
	})
	out := make([]claudeLine, len(idx))
	for k, i := range idx {
		out[k] = lines[i]
	}
	return out
}

// claudeUserText is the text a person typed: a plain string or text and
// image blocks. Tool results ride on user lines too; those are not typed.
func claudeUserText(raw json.RawMessage) (string, bool) {
	var msg struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &msg) != nil {
		return "", false
	}
	var s string
	if json.Unmarshal(msg.Content, &s) == nil {
		return s, true
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(msg.Content, &blocks) != nil {
		return "", false
	}
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			parts = append(parts, "[image]")
		case "tool_result":
			return "", false
		}
	}
	return strings.Join(parts, "\n"), len(parts) > 0
}

// mapClaude hands a stored message line to the live adapter's mapper in
// its stream-json shape.
func mapClaude(t *turns, m *claude.Mapper, typ string, l claudeLine) {
	frame, err := json.Marshal(struct {
		Type          string          `json:"type"`
		Message       json.RawMessage `json:"message"`
		ToolUseResult json.RawMessage `json:"tool_use_result,omitempty"`
	}{typ, l.Message, l.ToolUseResult})
	if err != nil {
		return
	}
	out, err := m.Map(frame)
	if err != nil {
		return
	}
	for _, o := range out.Events {
		t.add(o.Type, o.Payload)
	}
}
