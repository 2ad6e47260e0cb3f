package history

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Hermes reads Hermes Agent's database: $HERMES_HOME/state.db (root
// ~/.hermes), opened read-only. Table sessions, messages (role user,
// assistant with tool_calls and reasoning, tool with tool_call_id). When
// Hermes compresses a conversation it ends the session
// (end_reason 'compression') and goes on in a child session
// (parent_session_id): the chain is one conversation, under its first
// session's id, continued under its newest. Subagent children are not
// conversations of their own; a /branch is. Rewound messages (active 0,
// not compacted) are left out; compacted ones are what the person saw.
type Hermes struct{}

func (Hermes) Agent() string { return "hermes" }

func (Hermes) Root(getenv func(string) string, home string) string {
	if d := getenv("HERMES_HOME"); d != "" {
		return d
	}
	return filepath.Join(home, ".hermes")
}

func (Hermes) file(root string) string { return filepath.Join(root, "state.db") }

// hermesListable are the sessions Hermes itself lists: roots and branches
// (its hermes_state.py _LISTABLE_CHILD_SQL).
const hermesListable = `SELECT s.id FROM sessions s WHERE s.parent_session_id IS NULL
	OR json_extract(COALESCE(s.model_config, '{}'), '$._branched_from') IS NOT NULL
	OR EXISTS (SELECT 1 FROM sessions p WHERE p.id = s.parent_session_id AND p.end_reason = 'branched')
	ORDER BY s.started_at, s.id`

func (h Hermes) Discover(root string) ([]string, error) {
	return discoverDB("Hermes Agent", h.file(root), hermesListable)
}

// Versions: a conversation moves with its chain's newest message and
// newest continuation (a compression, a rewind changes a message's active
// flag: counted too).
func (h Hermes) Versions(root string) (map[string]string, error) {
	return versionsDB("Hermes Agent", h.file(root), `WITH RECURSIVE listed(id) AS (`+hermesListable+`),
		chain(root, id) AS (SELECT id, id FROM listed
			UNION SELECT chain.root, c.id FROM chain JOIN sessions p ON p.id = chain.id JOIN sessions c ON c.parent_session_id = p.id
			WHERE p.end_reason = 'compression')
		SELECT chain.root, group_concat(chain.id) || ':' || COALESCE((SELECT max(m.id) || ':' || sum(m.active) FROM messages m
			WHERE m.session_id IN (SELECT id FROM chain c2 WHERE c2.root = chain.root)), '')
		FROM chain GROUP BY chain.root`)
}

func (Hermes) WatchDir(root string) string { return root }

func (h Hermes) Match(root, path string) bool { return matchDB(h.file(root), path) }

func (Hermes) Parse(r io.Reader, file string) (*Session, error) { return parseFromReader(r, file) }

// hermesToolCall is one entry of an assistant message's tool_calls (the
// OpenAI shape; arguments a JSON string).
type hermesToolCall struct {
	ID       string `json:"id"`
	CallID   string `json:"call_id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// parseHermesToolCalls decodes a message's tool_calls; the fuzz target's
// entry point.
func parseHermesToolCalls(b []byte) ([]hermesToolCall, error) {
	var calls []hermesToolCall
	if err := json.Unmarshal(b, &calls); err != nil {
		return nil, fmt.Errorf("tool_calls is not a JSON list: %w", err)
	}
	return calls, nil
}

// hermesChain is the conversation's sessions: id and the compression
// continuations after it, oldest first.
func hermesChain(db *sql.DB, id string) ([]string, error) {
	chain := []string{id}
	seen := map[string]bool{id: true}
	for cur := id; ; {
		var next string
		err := db.QueryRow(`SELECT c.id FROM sessions c JOIN sessions p ON p.id = c.parent_session_id
			WHERE c.parent_session_id = ? AND p.end_reason = 'compression' ORDER BY c.started_at DESC LIMIT 1`, cur).Scan(&next)
		if err == sql.ErrNoRows || seen[next] {
			return chain, nil
		}
		if err != nil {
			return nil, err
		}
		seen[next] = true
		chain = append(chain, next)
		cur = next
	}
}

func (h Hermes) ReadRef(ref string) (*Session, error) {
	file, id := splitRef(ref)
	s := &Session{Origin: Origin{Agent: h.Agent(), File: ref, NativeID: id}}
	db, err := openReadOnly("Hermes Agent", file)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var cwd, title, model, modelConfig sql.NullString
	var started float64
	err = db.QueryRow(`SELECT cwd, title, model, model_config, started_at FROM sessions WHERE id = ?`, id).
		Scan(&cwd, &title, &model, &modelConfig, &started)
	if err != nil {
		return nil, fmt.Errorf("read Hermes Agent session %s: %w", ref, ErrNotSession)
	}
	s.Workspace = cwd.String
	if s.Workspace == "" {
		var mc struct {
			Cwd string `json:"cwd"`
		}
		_ = json.Unmarshal([]byte(modelConfig.String), &mc)
		s.Workspace = mc.Cwd
	}
	s.Workspace = cleanDir(s.Workspace)
	s.Title, s.Model = titleOf(title.String), model.String
	s.touch(unixSeconds(started))
	chain, err := hermesChain(db, id)
	if err != nil {
		return nil, fmt.Errorf("read Hermes Agent session %s: %w", ref, err)
	}
	// Continue resumes the newest session of the chain; the digest stays
	// on the first, so a compression adds to the same session.
	if len(chain) > 1 {
		s.Origin.ResumeID = chain[len(chain)-1]
	}
	var t turns
	pending := false
	for _, sid := range chain {
		if err := hermesMessages(db, sid, s, &t, &pending); err != nil {
			return nil, fmt.Errorf("read Hermes Agent session %s: %w", ref, err)
		}
	}
	s.Open = len(t.list) > 0 && pending
	t.end()
	s.Turns = t.list
	return s, nil
}

func hermesMessages(db *sql.DB, sid string, s *Session, t *turns, pending *bool) error {
	rows, err := db.Query(`SELECT id, role, content, tool_call_id, tool_calls, tool_name, timestamp, finish_reason, reasoning
		FROM messages WHERE session_id = ? AND (active = 1 OR compacted = 1) ORDER BY timestamp, id`, sid)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var role string
		var content, callID, calls, toolName, finish, reasoning sql.NullString
		var ts float64
		if err := rows.Scan(&id, &role, &content, &callID, &calls, &toolName, &ts, &finish, &reasoning); err != nil {
			return err
		}
		at := unixSeconds(ts)
		s.touch(at)
		switch role {
		case "user":
			if strings.TrimSpace(content.String) == "" {
				continue
			}
			if s.Title == "" {
				s.Title = titleOf(content.String)
			}
			t.start(at, fmt.Sprintf("hermes-%s-%d", sid, id), content.String)
			*pending = true
		case "assistant":
			if r := reasoning.String; r != "" {
				t.add(run.EventReasoningDelta, run.TextDelta{Text: r})
				t.add(run.EventReasoningDone, run.TextDone{Text: r})
			}
			if content.String != "" {
				t.add(run.EventTokenDelta, run.TextDelta{Text: content.String})
			}
			*pending = finish.String == "tool_calls"
			if calls.String == "" {
				continue
			}
			list, err := parseHermesToolCalls([]byte(calls.String))
			if err != nil {
				s.Skipped = append(s.Skipped, Skipped{Line: int(id), Reason: "message " + fmt.Sprint(id) + ": " + err.Error()})
				continue
			}
			for _, c := range list {
				var in map[string]any
				var input any = c.Function.Arguments
				if json.Unmarshal([]byte(c.Function.Arguments), &in) == nil {
					input = in
				}
				t.add(run.EventToolStarted, run.ToolStarted{ToolCallID: hermesCallID(c), Name: c.Function.Name,
					Title: toolTitle(c.Function.Name, in), Kind: toolKind(c.Function.Name), Input: input})
			}
			if len(list) > 0 {
				*pending = true
			}
		case "tool":
			t.add(run.EventToolDone, hermesToolDone(callID.String, content.String))
		}
	}
	return rows.Err()
}

func hermesCallID(c hermesToolCall) string {
	if c.ID != "" {
		return c.ID
	}
	return c.CallID
}

// hermesToolDone reads a tool message: a JSON result {output, exit_code,
// error} or plain text.
func hermesToolDone(id, content string) run.ToolDone {
	d := run.ToolDone{ToolCallID: id, Status: "completed", Output: content}
	var r struct {
		Output   *string `json:"output"`
		ExitCode *int    `json:"exit_code"`
		Error    *string `json:"error"`
	}
	if strings.HasPrefix(strings.TrimSpace(content), "{") && json.Unmarshal([]byte(content), &r) == nil {
		if r.Output != nil {
			d.Output = *r.Output
		}
		d.ExitCode = r.ExitCode
		if r.Error != nil && *r.Error != "" {
			d.Status = "failed"
			if d.Output == "" {
				d.Output = *r.Error
			}
		}
	}
	if d.ExitCode != nil && *d.ExitCode != 0 {
		d.Status = "failed"
	}
	return d
}
