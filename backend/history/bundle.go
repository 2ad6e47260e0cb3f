package history

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// agentNames are the names people know the agents by, for the source badge.
var agentNames = map[string]string{"claude": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI", "qwen": "Qwen Code",
	"opencode": "OpenCode", "hermes": "Hermes Agent"}

// SourceLabel says where a session came from, as the session's
// imported_from shows it: "Claude Code 2.1.197: /home/me/.claude/…".
func SourceLabel(o Origin) string {
	name := agentNames[o.Agent]
	if name == "" {
		name = o.Agent
	}
	if o.Version != "" {
		name += " " + o.Version
	}
	return name + ": " + o.File
}

// Digest recognises the same conversation on a second import: the agent and
// its own session id (not the bytes, which grow while the agent writes).
func Digest(o Origin) string { return "history:" + o.Agent + ":" + o.NativeID }

// ToBundle is the session in the journal's portable form, so it is stored
// by the same one import path bundles take (docs/ARCHITECTURE.md §Bundles):
// one run per turn, its user and assistant messages, its events in order.
// Pure.
func ToBundle(s *Session) (bundle.Bundle, error) {
	m := bundle.Manifest{
		Project: bundle.Project{Workspace: s.Workspace},
		Session: run.Session{ID: "history-" + s.Origin.NativeID, Title: s.Title, Agent: s.Origin.Agent, Model: s.Model,
			NativeSessionID: s.Origin.resumeID(), CreatedAt: s.Started, UpdatedAt: s.Updated},
	}
	b := bundle.Bundle{Events: map[string][]run.Event{}}
	for i, tn := range s.Turns {
		runID := fmt.Sprintf("r%d", i+1)
		userID, asstID := fmt.Sprintf("u%d", i+1), fmt.Sprintf("a%d", i+1)
		var reply strings.Builder
		var status run.Status = run.StatusCompleted
		evs := make([]run.Event, 0, len(tn.Events))
		at := run.UnixSeconds(tn.At)
		for j, e := range tn.Events {
			p := e.Payload
			switch v := p.(type) {
			case run.MessageUser:
				m.Messages = append(m.Messages, run.Message{ID: userID, Role: run.RoleUser, Content: v.Text, RunID: runID, CreatedAt: tn.At})
				v.MessageID = userID
				p = v
			case run.TextDelta:
				if e.Type == run.EventTokenDelta {
					reply.WriteString(v.Text)
				}
			case run.Done:
				status = v.Status
			}
			raw, err := json.Marshal(p)
			if err != nil {
				return bundle.Bundle{}, fmt.Errorf("turn %d: %s payload: %w", i+1, e.Type, err)
			}
			evs = append(evs, run.Event{Seq: int64(j + 1), RunID: runID, Type: e.Type, CreatedAt: at, Payload: raw,
				Terminal: e.Type == run.EventDone})
		}
		m.Messages = append(m.Messages, run.Message{ID: asstID, Role: run.RoleAssistant, Content: reply.String(), RunID: runID, CreatedAt: tn.At})
		m.Runs = append(m.Runs, bundle.Run{ID: runID, UserMessageID: userID, AssistantMessageID: asstID, Agent: s.Origin.Agent,
			Model: s.Model, Status: status, CreatedAt: tn.At})
		b.Events[runID] = evs
	}
	b.Manifest = m
	return b, nil
}
