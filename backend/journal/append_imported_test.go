package journal

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// historyBundle is an agent's history as ToBundle makes it: one run per
// turn, each its user message, the given events' types and a done.
func historyBundle(turns ...[]run.EventType) bundle.Bundle {
	at := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	b := bundle.Bundle{Manifest: bundle.Manifest{Session: run.Session{Title: "t", Agent: "gemini", CreatedAt: at, UpdatedAt: at}},
		Events: map[string][]run.Event{}}
	for i, types := range turns {
		id, u := fmt.Sprintf("r%d", i+1), fmt.Sprintf("u%d", i+1)
		b.Manifest.Messages = append(b.Manifest.Messages, run.Message{ID: u, Role: run.RoleUser, Content: "ask " + id, RunID: id, CreatedAt: at})
		b.Manifest.Runs = append(b.Manifest.Runs, bundle.Run{ID: id, UserMessageID: u, Agent: "gemini", Status: run.StatusCompleted, CreatedAt: at})
		types = append(append([]run.EventType{run.EventMessageUser}, types...), run.EventDone)
		for j, typ := range types {
			var p any = run.TextDelta{Text: "x"}
			switch typ {
			case run.EventMessageUser:
				p = run.MessageUser{MessageID: u, Text: "ask " + id}
			case run.EventToolStarted:
				p = run.ToolStarted{ToolCallID: "c1", Name: "shell"}
			case run.EventDone:
				p = run.Done{Status: run.StatusCompleted}
			}
			raw, _ := json.Marshal(p)
			b.Events[id] = append(b.Events[id], run.Event{Seq: int64(j + 1), RunID: id, Type: typ, CreatedAt: run.UnixSeconds(at), Payload: raw})
		}
	}
	return b
}

// TestAppendImportedLastTurn: the cursor replaces the last stored run only
// for a format without a turn-end mark and only when it reads differently
// (docs/ARCHITECTURE.md §History).
func TestAppendImportedLastTurn(t *testing.T) {
	text := []run.EventType{run.EventTokenDelta}
	tool := []run.EventType{run.EventTokenDelta, run.EventToolStarted, run.EventTokenDelta}
	for _, c := range []struct {
		name          string
		next          bundle.Bundle
		lastMayChange bool
		continued     bool
		added, events int
	}{
		{"same turns read again", historyBundle(text, text), true, false, 0, 6},
		{"last grew, a format with a turn-end mark", historyBundle(text, tool), false, false, 0, 6},
		{"last grew, no turn-end mark", historyBundle(text, tool), true, false, 1, 8},
		{"last grew and a turn followed", historyBundle(text, tool, text), true, false, 2, 11},
		{"continued in the app", historyBundle(text, tool), true, true, 0, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := ctxT(t)
			s := openTest(t, Options{})
			const digest = "history:gemini:g1"
			ses, err := s.ImportSession(ctx, historyBundle(text, text), bundle.ImportOptions{Digest: digest, NativeSessionID: "g1", Source: "Gemini CLI: f"})
			if err != nil {
				t.Fatal(err)
			}
			if c.continued {
				if _, err := s.ContinueImported(ctx, ses.ID); err != nil {
					t.Fatal(err)
				}
			}
			_, added, err := s.AppendImported(ctx, digest, c.next, c.lastMayChange)
			if err != nil || added != c.added {
				t.Fatalf("added %d, %v; want %d", added, err, c.added)
			}
			var events, msgs, docs, runs int
			if err := s.db.QueryRow(`SELECT (SELECT count(*) FROM events e JOIN runs r ON r.id = e.run_id WHERE r.session_id = ?),
				(SELECT count(*) FROM messages WHERE session_id = ?), (SELECT count(*) FROM search_docs WHERE session_id = ?),
				(SELECT count(*) FROM runs WHERE session_id = ?)`, ses.ID, ses.ID, ses.ID, ses.ID).Scan(&events, &msgs, &docs, &runs); err != nil {
				t.Fatal(err)
			}
			if events != c.events || msgs != runs || docs != runs { // one user message each, indexed; no stale ones
				t.Fatalf("events %d (want %d), messages %d, search docs %d, runs %d", events, c.events, msgs, docs, runs)
			}
		})
	}
}
