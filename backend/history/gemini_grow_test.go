package history_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// TestGeminiLastTurnGrows: Gemini CLI's chat has no turn-end mark, so with
// the mirror on a text written before a tool call (still waiting for
// approval) is stored as the turn's answer. When the call, its result and
// the model's answer are appended, the stored turn is replaced: it gets its
// tool card, and the journal holds exactly what a fresh import of the grown
// file holds (no stale rows or search entries). Reading again changes
// nothing; the next turn is added as before (docs/ARCHITECTURE.md §History).
func TestGeminiLastTurnGrows(t *testing.T) {
	ctx := context.Background()
	_, lines := geminiRecorded(t)
	// index is the first line holding marker.
	index := func(marker string) int {
		t.Helper()
		for i, l := range lines {
			if bytes.Contains(l, []byte(marker)) {
				return i
			}
		}
		t.Fatalf("no %q in the recording", marker)
		return 0
	}
	textEnd := index(`I'll run the command.`) + 2 // the text and its $set
	toolEnd := index(`"toolCalls"`) + 1           // the call with its result
	answerEnd := index(`All done: hello.txt`) + 2 // the model's answer to it
	p := writeBeside(t, "session-grow.jsonl", nil)
	write := func(n int) {
		t.Helper()
		if err := os.WriteFile(p, bytes.Join(lines[:n], nil), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	importNow := func(j *journal.Store) history.Imported {
		t.Helper()
		im, err := history.ImportFile(ctx, j, history.Gemini{}, p, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return im
	}
	j := openJournal(t)

	write(textEnd)
	first := importNow(j)
	if !first.Created || first.Added != 2 {
		t.Fatalf("text before the tool call: %+v", first)
	}
	if n := toolCards(t, j, first.Session.ID); n != 0 {
		t.Fatalf("text before the tool call: %d tool cards", n)
	}

	write(toolEnd) // the call is answered by nobody yet: the turn is open
	if im := importNow(j); im.Added != 0 {
		t.Fatalf("tool call without the model's answer: %+v", im)
	}

	write(answerEnd)
	grown := importNow(j)
	if grown.Added != 1 || grown.Session.ID != first.Session.ID {
		t.Fatalf("answered tool call: %+v", grown)
	}
	if n := toolCards(t, j, first.Session.ID); n != 1 {
		t.Fatalf("answered tool call: %d tool cards, want 1", n)
	}
	fresh := openJournal(t)
	importNow(fresh)
	if got, want := journalRows(t, j), journalRows(t, fresh); got != want {
		t.Fatalf("grown: %s\nfresh import of the same file: %s", got, want)
	}

	again := importNow(j)
	if again.Added != 0 || journalRows(t, j) != journalRows(t, fresh) {
		t.Fatalf("read again: %+v, %s", again, journalRows(t, j))
	}

	write(len(lines))
	if im := importNow(j); im.Added != 1 {
		t.Fatalf("next turn: %+v", im)
	}
	runs, err := j.ListRuns(ctx, run.RunFilter{SessionID: first.Session.ID})
	if err != nil || len(runs) != 3 {
		t.Fatalf("next turn: %d runs, %v", len(runs), err)
	}
}

// toolCards counts the session's tool.started events.
func toolCards(t *testing.T, j *journal.Store, sessionID string) int {
	t.Helper()
	var n int
	if err := j.DB().QueryRow(`SELECT count(*) FROM events e JOIN runs r ON r.id = e.run_id
		WHERE r.session_id = ? AND e.type = ?`, sessionID, string(run.EventToolStarted)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// journalRows is rowCounts with the search index.
func journalRows(t *testing.T, j *journal.Store) string {
	t.Helper()
	var docs, fts int
	if err := j.DB().QueryRow(`SELECT (SELECT count(*) FROM search_docs), (SELECT count(*) FROM search_fts)`).Scan(&docs, &fts); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s search_docs=%d search_fts=%d", rowCounts(t, j), docs, fts)
}
