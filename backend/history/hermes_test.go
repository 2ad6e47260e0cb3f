package history_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/history"
)

// TestHermesChain: a conversation Hermes compressed into a chain of
// sessions is one, under the first id and resumed by the newest; a
// subagent's child session is no conversation of its own; rewound
// messages are left out.
func TestHermesChain(t *testing.T) {
	f := history.Hermes{}
	_, ref := copyDatabase(t, f, []string{
		`UPDATE sessions SET end_reason = 'compression', ended_at = started_at + 100 WHERE parent_session_id IS NULL`,
		`INSERT INTO sessions (id, source, parent_session_id, started_at, model) SELECT 'next', 'acp', id, started_at + 100, model FROM sessions WHERE parent_session_id IS NULL`,
		`INSERT INTO messages (session_id, role, content, timestamp) VALUES ('next', 'user', 'after compression', 1795767999), ('next', 'assistant', 'still here', 1795768000)`,
		`INSERT INTO messages (session_id, role, content, timestamp, active) VALUES ('next', 'user', 'rewound away', 1795768001, 0)`,
		`INSERT INTO sessions (id, source, parent_session_id, started_at) SELECT 'sub', 'subagent', id, started_at + 10 FROM sessions WHERE id = 'next'`,
		`INSERT INTO messages (session_id, role, content, timestamp) VALUES ('sub', 'user', 'a subagent task', 1795768002)`,
	})
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
	if files, _ := f.Discover(filepath.Dir(strings.SplitN(ref, "#", 2)[0])); len(files) != 1 {
		t.Fatalf("conversations %v, want the chain as one (no subagent, no continuation)", files)
	}

	// Continue resumes the newest session of the chain (session/load).
	ctx := context.Background()
	j := openJournal(t)
	im, err := history.ImportFile(ctx, j, f, ref, time.Now())
	if err != nil || im.Session.NativeSessionID != "next" {
		t.Fatalf("imported %+v %v", im.Session, err)
	}
	ses, err := j.ContinueImported(ctx, im.Session.ID)
	if err != nil || ses.NativeSessionID != "next" || ses.Agent != "hermes" {
		t.Fatalf("continued %+v %v", ses, err)
	}
}
