package history_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/history"
)

// hermesCompressed: Hermes compressed the recorded conversation and went
// on in a child session; a subagent ran as another child; one message was
// rewound away.
var hermesCompressed = []string{
	`UPDATE sessions SET end_reason = 'compression', ended_at = started_at + 100 WHERE parent_session_id IS NULL`,
	`INSERT INTO sessions (id, source, parent_session_id, started_at, model) SELECT 'next', 'acp', id, started_at + 100, model FROM sessions WHERE parent_session_id IS NULL`,
	`INSERT INTO messages (session_id, role, content, timestamp) VALUES ('next', 'user', 'after compression', 1795767999), ('next', 'assistant', 'still here', 1795768000)`,
	`INSERT INTO messages (session_id, role, content, timestamp, active) VALUES ('next', 'user', 'rewound away', 1795768001, 0)`,
	`INSERT INTO sessions (id, source, parent_session_id, started_at) SELECT 'sub', 'subagent', id, started_at + 10 FROM sessions WHERE id = 'next'`,
	`INSERT INTO messages (session_id, role, content, timestamp) VALUES ('sub', 'user', 'a subagent task', 1795768002)`,
}

// TestHermesChain: a conversation Hermes compressed into a chain of
// sessions is one, under the first id and resumed by the newest — also
// when the chain grew after it was imported; a subagent's child session is
// no conversation of its own; rewound messages are left out.
func TestHermesChain(t *testing.T) {
	ctx := context.Background()
	f := history.Hermes{}
	_, ref := copyDatabase(t, f, nil)
	j := openJournal(t)
	first, err := history.ImportFile(ctx, j, f, ref, time.Now())
	if err != nil || !first.Created || first.Session.NativeSessionID != strings.SplitN(ref, "#", 2)[1] {
		t.Fatalf("before the compression: %+v %v", first.Session, err)
	}

	file := strings.SplitN(ref, "#", 2)[0]
	db, err := sql.Open("sqlite3", file)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range hermesCompressed {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s, err := history.Read(f, ref)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"[scenario:reasoning] think, then answer", "[scenario:tool] create hello.txt", "[scenario:recall] third", "after compression"}
	if got := userTexts(s); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("turns %q, want %q", got, want)
	}
	if !strings.HasSuffix(ref, "#"+s.Origin.NativeID) || s.Origin.ResumeID != "next" {
		t.Fatalf("origin %+v", s.Origin)
	}
	if files, _ := f.Discover(filepath.Dir(file)); len(files) != 1 {
		t.Fatalf("conversations %v, want the chain as one (no subagent, no continuation)", files)
	}

	// Imported again: the same session, its new turn, and Continue resumes
	// the newest session of the chain (session/load).
	im, err := history.ImportFile(ctx, j, f, ref, time.Now())
	if err != nil || im.Created || im.Added != 1 || im.Session.ID != first.Session.ID || im.Session.NativeSessionID != "next" {
		t.Fatalf("after the compression: %+v %v", im, err)
	}
	ses, err := j.ContinueImported(ctx, im.Session.ID)
	if err != nil || ses.NativeSessionID != "next" || ses.Agent != "hermes" {
		t.Fatalf("continued %+v %v", ses, err)
	}
}
