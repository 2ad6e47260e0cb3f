package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// seedV1 writes rows the way a version-1 journal would have.
func seedV1(t *testing.T, s *Store) {
	t.Helper()
	stmts := []string{
		`INSERT INTO projects VALUES ('prj_old', 'old', '/tmp/old', 1)`,
		`INSERT INTO sessions (id, project_id, title, agent, created_at, updated_at) VALUES ('ses_old', 'prj_old', 'Old', 'fake', 1, 1)`,
		`INSERT INTO messages (id, session_id, role, content, run_id, created_at) VALUES ('msg_u', 'ses_old', 'user', 'an ancient question', 'run_old', 2)`,
		`INSERT INTO messages (id, session_id, role, content, run_id, created_at) VALUES ('msg_a', 'ses_old', 'assistant', '', 'run_old', 3)`,
		`INSERT INTO turns (id, session_id, run_id, user_message_id, assistant_message_id, state, created_at, updated_at)
			VALUES ('trn_old', 'ses_old', 'run_old', 'msg_u', 'msg_a', 'worker_started', 2, 2)`,
		`INSERT INTO runs (id, project_id, session_id, turn_id, user_message_id, assistant_message_id, status, created_at)
			VALUES ('run_old', 'prj_old', 'ses_old', 'trn_old', 'msg_u', 'msg_a', 'running', 2)`,
		`INSERT INTO events VALUES ('run_old', 1, 'run.started', 1.5, '{"agent":"fake"}')`,
		`INSERT INTO events VALUES ('run_old', 2, 'token.delta', 1.6, '{"text":"old "}')`,
		`UPDATE runs SET last_seq = 2`,
	}
	for _, q := range stmts {
		if _, err := s.DB().Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestMigrationsFromEveryVersion(t *testing.T) {
	for from := 0; from < SchemaVersion; from++ {
		t.Run(fmt.Sprintf("from_v%d", from), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "j.db")
			if from > 0 {
				old, err := open(path, Options{}, from)
				if err != nil {
					t.Fatal(err)
				}
				var v int
				old.DB().QueryRow("PRAGMA user_version").Scan(&v)
				if v != from {
					t.Fatalf("built version %d, want %d", v, from)
				}
				seedV1(t, old)
				old.Close()
			}
			s, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			var v int
			s.DB().QueryRow("PRAGMA user_version").Scan(&v)
			if v != SchemaVersion {
				t.Fatalf("version %d after Open", v)
			}
			backups, _ := BackupFiles(path)
			if (from > 0) != (len(backups) == 1) {
				t.Fatalf("backups = %v", backups)
			}
			if from == 0 {
				return
			}
			// The backup is a usable copy of the old version.
			b, err := open(backups[0], Options{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			b.DB().QueryRow("PRAGMA user_version").Scan(&v)
			b.Close()
			if v != from {
				t.Fatalf("backup version %d", v)
			}
			// Old data is intact and usable.
			w, err := s.OpenWriter(ctx, "run_old")
			if err != nil {
				t.Fatal(err)
			}
			w.Append(run.EventTokenDelta, run.TextDelta{Text: "answer"})
			if ev, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted}); err != nil || ev.Seq != 4 {
				t.Fatalf("append to migrated run: %+v %v", ev, err)
			}
			w.Close()
			msgs, _ := s.Messages(ctx, "ses_old")
			if len(msgs) != 2 || msgs[1].Content != "old answer" {
				t.Fatalf("messages = %+v", msgs)
			}
			if from < 2 { // migration 2 indexes existing messages
				if hits, _ := s.Search(ctx, "ancient", 5); len(hits) != 1 || hits[0].MessageID != "msg_u" {
					t.Fatalf("backfilled search = %+v", hits)
				}
			}
			if hits, _ := s.Search(ctx, "answer", 5); len(hits) != 1 {
				t.Fatalf("new text not indexed: %+v", hits)
			}
		})
	}
}

func TestRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.DB().Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion+1))
	s.Close()
	_, err = Open(path, Options{})
	if !errors.Is(err, ErrSchemaTooNew) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "newer Hermes Desk") {
		t.Fatalf("Open newer schema: %v", err)
	}
	if b, _ := BackupFiles(path); len(b) != 0 {
		t.Fatalf("backup taken of a database we refuse: %v", b)
	}
}

func TestNotADatabase(t *testing.T) {
	dir := t.TempDir()
	cases := map[string][]byte{
		"text":      []byte("hello, I am a text file, not a database at all\n"),
		"short":     []byte("SQLite"),
		"truncated": append([]byte(sqliteHeader), make([]byte, 50)...),
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".db")
			os.WriteFile(path, content, 0o600)
			_, err := Open(path, Options{})
			if !errors.Is(err, ErrNotDatabase) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Open(%s) = %v", name, err)
			}
			if got, _ := os.ReadFile(path); string(got) != string(content) {
				t.Fatal("the foreign file was modified")
			}
		})
	}
}

// A journal from before user messages were stored redacted: migrating it
// masks the person's secrets in messages and the search index.
func TestMigrationRedactsStoredUserMessages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	old, err := open(path, Options{}, 5)
	if err != nil {
		t.Fatal(err)
	}
	seedV1(t, old)
	const key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
	for _, q := range []string{
		`INSERT INTO messages (id, session_id, role, content, run_id, created_at) VALUES ('msg_s', 'ses_old', 'user', 'use ` + key + ` please', 'run_old', 4)`,
		`INSERT INTO search_docs (kind, session_id, message_id, created_at) VALUES ('user', 'ses_old', 'msg_s', 4)`,
		`INSERT INTO search_fts (rowid, body) VALUES (last_insert_rowid(), 'use ` + key + ` please')`,
	} {
		if _, err := old.DB().Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var content string
	if err := s.DB().QueryRow(`SELECT content FROM messages WHERE id = 'msg_s'`).Scan(&content); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(content, key) || !strings.Contains(content, "please") {
		t.Fatalf("message after migration: %q", content)
	}
	var n int
	s.DB().QueryRow(`SELECT count(*) FROM search_fts WHERE search_fts MATCH '"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"'`).Scan(&n)
	var body string
	s.DB().QueryRow(`SELECT body FROM search_fts WHERE rowid = (SELECT id FROM search_docs WHERE message_id = 'msg_s')`).Scan(&body)
	if n != 0 || strings.Contains(body, key) {
		t.Fatalf("the search index still holds the secret (%d matches, body %q)", n, body)
	}
	// An ordinary message is left alone.
	s.DB().QueryRow(`SELECT content FROM messages WHERE id = 'msg_u'`).Scan(&content)
	if content != "an ancient question" {
		t.Fatalf("plain message changed: %q", content)
	}
}
