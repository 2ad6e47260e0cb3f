package history

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// OpenCode reads OpenCode's database: <root>/opencode.db, root
// $XDG_DATA_HOME/opencode or ~/.local/share/opencode, opened read-only.
// Tables session, message and part hold JSON data: a user message's text
// parts are what was typed; an assistant message's parts are reasoning,
// text, tool (its state has input, output, status) and step-finish (the
// step's tokens). A child session (a subagent's task) is not a
// conversation of its own.
type OpenCode struct{}

func (OpenCode) Agent() string { return "opencode" }

func (OpenCode) Root(getenv func(string) string, home string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "opencode")
	}
	return filepath.Join(home, ".local", "share", "opencode")
}

func (o OpenCode) file(root string) string { return filepath.Join(root, "opencode.db") }

func (o OpenCode) Discover(root string) ([]string, error) {
	return discoverDB("OpenCode", o.file(root), `SELECT id FROM session WHERE parent_id IS NULL ORDER BY time_created, id`)
}

// Versions: a conversation moves with its session row and its parts.
func (o OpenCode) Versions(root string) (map[string]string, error) {
	return versionsDB("OpenCode", o.file(root), `SELECT s.id, s.time_updated || ':' ||
		COALESCE((SELECT max(p.time_updated) || ':' || count(*) FROM part p WHERE p.session_id = s.id), '')
		FROM session s WHERE s.parent_id IS NULL`)
}

func (OpenCode) WatchDir(root string) string { return root }

func (o OpenCode) Match(root, path string) bool { return matchDB(o.file(root), path) }

func (OpenCode) Parse(r io.Reader, file string) (*Session, error) { return parseFromReader(r, file) }

// openCodeMessage is a message row's data.
type openCodeMessage struct {
	Role    string `json:"role"`
	ModelID string `json:"modelID"`
	Finish  string `json:"finish"`
	Time    struct {
		Completed int64 `json:"completed"`
	} `json:"time"`
}

// openCodePart is a part row's data.
type openCodePart struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Tool      string `json:"tool"`
	CallID    string `json:"callID"`
	State     struct {
		Status string         `json:"status"` // pending, running, completed, error
		Input  map[string]any `json:"input"`
		Output string         `json:"output"`
		Error  string         `json:"error"`
		Title  string         `json:"title"`
	} `json:"state"`
	Tokens *struct {
		Input     int64 `json:"input"`
		Output    int64 `json:"output"`
		Reasoning int64 `json:"reasoning"`
		Cache     struct {
			Read  int64 `json:"read"`
			Write int64 `json:"write"`
		} `json:"cache"`
	} `json:"tokens"`
}

// parseOpenCodePart decodes a part's data; the fuzz target's entry point.
func parseOpenCodePart(b []byte) (openCodePart, error) {
	var p openCodePart
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("part is not JSON: %w", err)
	}
	if p.Type == "" {
		return p, fmt.Errorf("part has no type")
	}
	return p, nil
}

func (o OpenCode) ReadRef(ref string) (*Session, error) {
	file, id := splitRef(ref)
	s := &Session{Origin: Origin{Agent: o.Agent(), File: ref, NativeID: id}}
	db, err := openReadOnly("OpenCode", file)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var created, updated int64
	err = db.QueryRow(`SELECT directory, title, version, time_created, time_updated FROM session WHERE id = ?`, id).
		Scan(&s.Workspace, &s.Title, &s.Origin.Version, &created, &updated)
	if err != nil {
		return nil, fmt.Errorf("read OpenCode session %s: %w", ref, ErrNotSession)
	}
	s.Workspace = cleanDir(s.Workspace)
	s.Title = titleOf(s.Title)
	s.touch(unixMillis(created))
	s.touch(unixMillis(updated))
	rows, err := db.Query(`SELECT m.id, m.time_created, m.data, p.id, p.data FROM message m LEFT JOIN part p ON p.message_id = m.id
		WHERE m.session_id = ? ORDER BY m.time_created, m.id, p.id`, id)
	if err != nil {
		return nil, fmt.Errorf("read OpenCode session %s: %w", ref, err)
	}
	defer rows.Close()
	var t turns
	var cur string // the message being read
	var msg openCodeMessage
	pending, n := false, 0
	var userText []string
	flushUser := func(at int64) {
		if len(userText) == 0 {
			return
		}
		text := strings.Join(userText, "\n")
		userText = nil
		if s.Title == "" {
			s.Title = titleOf(text)
		}
		t.start(unixMillis(at), cur, text)
		pending = true
	}
	var curAt int64
	for rows.Next() {
		n++
		var mid string
		var at int64
		var mdata []byte
		var pid, pdata *string
		if err := rows.Scan(&mid, &at, &mdata, &pid, &pdata); err != nil {
			return nil, fmt.Errorf("read OpenCode session %s: %w", ref, err)
		}
		if mid != cur {
			flushUser(curAt)
			cur, curAt, msg = mid, at, openCodeMessage{}
			if err := json.Unmarshal(mdata, &msg); err != nil {
				s.Skipped = append(s.Skipped, Skipped{Line: n, Reason: fmt.Sprintf("message %s is not JSON: %v", mid, err)})
				msg.Role = ""
			}
			s.touch(unixMillis(at))
			if msg.Role == "assistant" {
				if msg.ModelID != "" {
					s.Model = msg.ModelID
				}
				pending = msg.Finish == "" || msg.Finish == "tool-calls" || msg.Time.Completed == 0
			}
		}
		if pdata == nil || msg.Role == "" {
			continue
		}
		p, err := parseOpenCodePart([]byte(*pdata))
		if err != nil {
			s.Skipped = append(s.Skipped, Skipped{Line: n, Reason: fmt.Sprintf("part %s: %v", *pid, err)})
			continue
		}
		if msg.Role == "user" {
			if p.Type == "text" && !p.Synthetic {
				userText = append(userText, p.Text)
			}
			continue
		}
		openCodePartEvents(&t, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read OpenCode session %s: %w", ref, err)
	}
	flushUser(curAt)
	s.Open = len(t.list) > 0 && pending
	t.end()
	s.Turns = t.list
	return s, nil
}

func openCodePartEvents(t *turns, p openCodePart) {
	switch p.Type {
	case "reasoning":
		if p.Text != "" {
			t.add(run.EventReasoningDelta, run.TextDelta{Text: p.Text})
			t.add(run.EventReasoningDone, run.TextDone{Text: p.Text})
		}
	case "text":
		if p.Text != "" && !p.Synthetic {
			t.add(run.EventTokenDelta, run.TextDelta{Text: p.Text})
		}
	case "tool":
		title := toolTitle(p.Tool, p.State.Input)
		t.add(run.EventToolStarted, run.ToolStarted{ToolCallID: p.CallID, Name: p.Tool, Title: title, Kind: toolKind(p.Tool), Input: p.State.Input})
		d := run.ToolDone{ToolCallID: p.CallID, Status: "completed", Output: p.State.Output}
		switch p.State.Status {
		case "error":
			d.Status, d.Output = "failed", p.State.Error
		case "pending", "running":
			d.Status = "cancelled" // never finished: the agent stopped while it ran
		}
		t.add(run.EventToolDone, d)
	case "step-finish":
		if k := p.Tokens; k != nil {
			t.addUsage(run.Usage{InputTokens: k.Input + k.Cache.Read + k.Cache.Write, OutputTokens: k.Output, ReasoningTokens: k.Reasoning,
				CachedTokens: k.Cache.Read})
		}
	}
}
