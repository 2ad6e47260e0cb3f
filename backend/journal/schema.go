package journal

import (
	"context"
	"database/sql"
	"github.com/hermesdesk/hermesdesk/backend/redact"

	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// migration is one forward-only schema step. Steps only add (tables,
// columns, indexes): older shims may still be writing while a newer app
// migrates (docs/ARCHITECTURE.md §Durability).
type migration struct {
	version int
	name    string
	sql     string
	// fn, when set, runs after sql in the same transaction: a step that
	// needs Go (redaction) rather than SQL alone.
	fn func(ctx context.Context, tx *sql.Tx) error
}

var migrations = []migration{
	{1, "core", `
CREATE TABLE projects (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	workspace  TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE TABLE sessions (
	id                TEXT PRIMARY KEY,
	project_id        TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	title             TEXT NOT NULL DEFAULT '',
	agent             TEXT NOT NULL DEFAULT '',
	model             TEXT NOT NULL DEFAULT '',
	profile           TEXT NOT NULL DEFAULT '',
	archived          INTEGER NOT NULL DEFAULT 0,
	native_session_id TEXT NOT NULL DEFAULT '',
	created_at        INTEGER NOT NULL,
	updated_at        INTEGER NOT NULL
);
CREATE INDEX sessions_by_project ON sessions(project_id, updated_at DESC);
CREATE TABLE messages (
	id          TEXT PRIMARY KEY,
	session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	role        TEXT NOT NULL,
	content     TEXT NOT NULL DEFAULT '',
	run_id      TEXT NOT NULL DEFAULT '',
	attachments TEXT NOT NULL DEFAULT '',
	created_at  INTEGER NOT NULL
);
CREATE INDEX messages_by_session ON messages(session_id, created_at);
CREATE TABLE turns (
	id                   TEXT PRIMARY KEY,
	session_id           TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	run_id               TEXT NOT NULL,
	user_message_id      TEXT NOT NULL,
	assistant_message_id TEXT NOT NULL,
	client_request_id    TEXT NOT NULL DEFAULT '',
	request_hash         TEXT NOT NULL DEFAULT '',
	state                TEXT NOT NULL,
	outcome              TEXT NOT NULL DEFAULT '',
	note                 TEXT NOT NULL DEFAULT '',
	created_at           INTEGER NOT NULL,
	updated_at           INTEGER NOT NULL
);
CREATE UNIQUE INDEX turns_by_client_request ON turns(client_request_id) WHERE client_request_id <> '';
CREATE INDEX turns_by_session ON turns(session_id);
CREATE TABLE runs (
	id                   TEXT PRIMARY KEY,
	project_id           TEXT NOT NULL,
	session_id           TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	turn_id              TEXT NOT NULL,
	user_message_id      TEXT NOT NULL,
	assistant_message_id TEXT NOT NULL,
	agent                TEXT NOT NULL DEFAULT '',
	model                TEXT NOT NULL DEFAULT '',
	status               TEXT NOT NULL,
	last_seq             INTEGER NOT NULL DEFAULT 0,
	terminal             INTEGER NOT NULL DEFAULT 0,
	pending_approval_id  TEXT NOT NULL DEFAULT '',
	pending_clarify_id   TEXT NOT NULL DEFAULT '',
	exit_code            INTEGER,
	error                TEXT NOT NULL DEFAULT '',
	created_at           INTEGER NOT NULL,
	started_at           INTEGER,
	ended_at             INTEGER
);
CREATE INDEX runs_by_session ON runs(session_id, created_at);
CREATE INDEX runs_active ON runs(terminal, created_at);
-- WITHOUT ROWID: rows live in the (run_id, seq) b-tree, so replaying a run
-- is one sequential range scan.
CREATE TABLE events (
	run_id     TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL CHECK (seq > 0),
	type       TEXT NOT NULL,
	created_at REAL NOT NULL,
	payload    BLOB NOT NULL,
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
-- Exactly one terminal event per run, whoever writes it. (Gaps and
-- events after done are checked once per run per batch by the writer,
-- inside the same BEGIN IMMEDIATE transaction: a per-row trigger tripled
-- the cost of an append.)
CREATE UNIQUE INDEX events_one_done ON events(run_id) WHERE type = 'done';
`, nil},
	{2, "search", `
CREATE TABLE search_docs (
	id         INTEGER PRIMARY KEY,
	kind       TEXT NOT NULL,
	session_id TEXT NOT NULL,
	run_id     TEXT NOT NULL DEFAULT '',
	message_id TEXT NOT NULL DEFAULT '',
	seq        INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL
);
CREATE INDEX search_docs_by_session ON search_docs(session_id);
CREATE VIRTUAL TABLE search_fts USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO search_docs(kind, session_id, run_id, message_id, created_at)
	SELECT role, session_id, run_id, id, created_at FROM messages WHERE content <> '' ORDER BY rowid;
INSERT INTO search_fts(rowid, body)
	SELECT d.id, m.content FROM search_docs d JOIN messages m ON m.id = d.message_id;
`, nil},
	{3, "settings", `
CREATE TABLE settings (
	key        TEXT PRIMARY KEY,
	value      TEXT NOT NULL,
	updated_at INTEGER NOT NULL
);
`, nil},
	{4, "schedules", `
CREATE TABLE schedules (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	prompt     TEXT NOT NULL,
	agent      TEXT NOT NULL,
	model      TEXT NOT NULL DEFAULT '',
	project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	phrase     TEXT NOT NULL DEFAULT '',
	cron       TEXT NOT NULL DEFAULT '',
	once_at    INTEGER,
	timezone   TEXT NOT NULL DEFAULT 'Local',
	target     TEXT NOT NULL,
	session_id TEXT NOT NULL DEFAULT '',
	missed     TEXT NOT NULL,
	enabled    INTEGER NOT NULL DEFAULT 1,
	cursor     INTEGER NOT NULL,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
-- A schedule's history: one row per due time handled (fired, skipped,
-- missed, failed to start) or "run now". A fired row's status is read from
-- its run, never stored here.
CREATE TABLE schedule_firings (
	id          INTEGER PRIMARY KEY,
	schedule_id TEXT NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
	due_at      INTEGER NOT NULL,
	at          INTEGER NOT NULL,
	outcome     TEXT NOT NULL,
	run_id      TEXT NOT NULL DEFAULT '',
	session_id  TEXT NOT NULL DEFAULT '',
	request_id  TEXT NOT NULL DEFAULT '',
	missed      INTEGER NOT NULL DEFAULT 0,
	catch_up    INTEGER NOT NULL DEFAULT 0,
	manual      INTEGER NOT NULL DEFAULT 0,
	reason      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX schedule_firings_by_schedule ON schedule_firings(schedule_id, id);
`, nil},
	// An imported session (a bundle from elsewhere) is read-only: it says
	// where it came from (docs/ARCHITECTURE.md §Bundles).
	{5, "imported sessions", `
ALTER TABLE sessions ADD COLUMN imported_from TEXT NOT NULL DEFAULT '';
`, nil},
	// Journals written before user messages were stored redacted hold
	// the person's own secrets in clear, in messages and the search index
	// (docs/ARCHITECTURE.md §Security): redact them in place.
	{6, "redact stored user messages", "", redactUserMessages},
	// The digest of the bundle an imported session came from, so the same
	// bundle imported again is recognised (docs/ARCHITECTURE.md §Bundles).
	{7, "imported bundle digest", `
ALTER TABLE sessions ADD COLUMN import_digest TEXT NOT NULL DEFAULT '';
CREATE INDEX sessions_by_import_digest ON sessions(import_digest) WHERE import_digest <> '';
`, nil},
	// A session keeps a person's choices of the agent's settings for its
	// next runs, and each agent's settings for a new session are
	// remembered to show before a session's first run
	// (docs/ARCHITECTURE.md §Session config options).
	{8, "session config options", `
ALTER TABLE sessions ADD COLUMN config TEXT NOT NULL DEFAULT '';
CREATE TABLE agent_config (
	agent      TEXT PRIMARY KEY,
	options    TEXT NOT NULL DEFAULT '',
	model      TEXT NOT NULL DEFAULT '',
	models     TEXT NOT NULL DEFAULT '',
	updated_at INTEGER NOT NULL
);
`, nil},
	// Usage totals by day, project, agent and model, kept on commit
	// (journal/usage.go; docs/ARCHITECTURE.md §Usage).
	{9, "usage totals", usageDaysSQL, backfillUsageDays},
	// Workspaces: a session's checkout or a worktree the app made
	// (journal/workspaces.go; docs/ARCHITECTURE.md §Workspaces).
	{10, "workspaces", workspacesSQL, nil},
	// A parked run's resume time and how often it parked (run.State;
	// docs/ARCHITECTURE.md §Usage, parked runs).
	{11, "parked runs", `
ALTER TABLE runs ADD COLUMN resumes_at TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN park_attempts INTEGER NOT NULL DEFAULT 0;
`, nil},
	// Checkpoints of the workspace before each run, and the undos and
	// restores made from them (journal/checkpoints.go;
	// docs/ARCHITECTURE.md §Checkpoints).
	{12, "checkpoints", `
CREATE TABLE checkpoints (
	id         TEXT PRIMARY KEY,
	kind       TEXT NOT NULL,
	state      TEXT NOT NULL,
	session_id TEXT NOT NULL,
	turn_id    TEXT NOT NULL DEFAULT '',
	run_id     TEXT NOT NULL DEFAULT '',
	target     TEXT NOT NULL DEFAULT '',
	workspace  TEXT NOT NULL,
	git_dir    TEXT NOT NULL,
	shadow     INTEGER NOT NULL DEFAULT 0,
	ref        TEXT NOT NULL,
	before     TEXT NOT NULL DEFAULT '',
	after      TEXT NOT NULL DEFAULT '',
	large      TEXT NOT NULL DEFAULT '',
	files      TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
CREATE INDEX checkpoints_by_session ON checkpoints(session_id, created_at);
CREATE INDEX checkpoints_by_run ON checkpoints(run_id) WHERE run_id <> '';
CREATE INDEX checkpoints_by_state ON checkpoints(state) WHERE state <> 'kept';
`, nil},
	// The repository's HEAD commit when a checkpoint was taken, so a fork
	// from it branches from the person's history (docs/ARCHITECTURE.md
	// §Checkpoints, Fork from here). Empty for a plain folder.
	// And the conversation a forked session's first message hands its
	// agent (journal/handover.go).
	{13, "checkpoint head and fork handover", `
ALTER TABLE checkpoints ADD COLUMN head TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN handover TEXT NOT NULL DEFAULT '';
`, nil},
	// The agent's own session a forked session's first run forks
	// natively, as JSON (journal/handover.go; docs/ARCHITECTURE.md
	// §Checkpoints, native forks).
	{14, "native fork of a forked session", `
ALTER TABLE sessions ADD COLUMN fork TEXT NOT NULL DEFAULT '';
`, nil},
	// A workspace review's viewed marks and line comments
	// (journal/review.go; docs/ARCHITECTURE.md §Review).
	{15, "review marks and comments", reviewSQL, nil},
	// Remote hosts reached over the person's ssh (journal/hosts.go;
	// docs/ARCHITECTURE.md §Hosts).
	{16, "hosts", hostsSQL, nil},
	// How far this side followed each run of each remote host
	// (docs/ARCHITECTURE.md §Remote cores; journal/remote.go).
	{17, "remote cursors", `
CREATE TABLE remote_cursors (
  host   TEXT NOT NULL,
  run_id TEXT NOT NULL,
  seq    INTEGER NOT NULL,
  PRIMARY KEY (host, run_id)
) WITHOUT ROWID;
`, nil},
}

// redactUserMessages masks secrets in user messages stored in clear by
// older versions, and in their search entries, so search can no longer
// find or show them. The agent got the message long ago.
func redactUserMessages(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, content FROM messages WHERE role = 'user' AND content <> ''`)
	if err != nil {
		return err
	}
	type change struct{ id, content string }
	var changes []change
	for rows.Next() {
		var id, content string
		if err := rows.Scan(&id, &content); err != nil {
			rows.Close()
			return err
		}
		if r := redact.String(content); r != content {
			changes = append(changes, change{id, r})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range changes {
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET content = ? WHERE id = ?`, c.content, c.id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE search_fts SET body = ? WHERE rowid IN (SELECT id FROM search_docs WHERE message_id = ?)`,
			c.content, c.id); err != nil {
			return err
		}
	}
	return nil
}

// SchemaVersion is the newest schema this build knows.
var SchemaVersion = migrations[len(migrations)-1].version

// migrateTo brings the schema to version target. Tests use lower targets
// to build databases of every earlier version.
func (s *Store) migrateTo(ctx context.Context, target int) error {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return s.wrap("read schema version", err)
	}
	if v > SchemaVersion {
		return fmt.Errorf("journal: %s has schema version %d but this Hermes Desk understands up to %d; install a newer Hermes Desk (the database was not touched): %w",
			s.path, v, SchemaVersion, ErrSchemaTooNew)
	}
	if v >= target {
		return nil
	}
	if v > 0 {
		if err := s.backup(ctx, v); err != nil {
			return err
		}
	}
	for _, m := range migrations {
		if m.version > target {
			break
		}
		if err := s.applyMigration(ctx, m); err != nil {
			return err
		}
	}
	if v > 0 {
		s.opts.Log.Info("journal: migrated", "path", s.path, "from", v, "to", target)
	}
	return nil
}

func (s *Store) applyMigration(ctx context.Context, m migration) error {
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (DSN _txlock)
	if err != nil {
		return s.wrap("begin migration", err)
	}
	defer tx.Rollback()
	// Another process may have migrated while we waited for the lock.
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return s.wrap("read schema version", err)
	}
	if v >= m.version {
		return nil
	}
	if v != m.version-1 {
		return fmt.Errorf("journal: %s: schema version %d cannot be migrated to %d", s.path, v, m.version)
	}
	step := func() error {
		if m.sql != "" {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
		}
		if m.fn != nil {
			return m.fn(ctx, tx)
		}
		return nil
	}
	if err := step(); err != nil {
		if strings.Contains(err.Error(), "no such module: fts5") {
			return fmt.Errorf("journal: migration %d (%s): this binary was built without the sqlite_fts5 tag: %w", m.version, m.name, err)
		}
		return s.wrap(fmt.Sprintf("migration %d (%s)", m.version, m.name), err)
	}
	if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(m.version)); err != nil {
		return s.wrap("set schema version", err)
	}
	if err := tx.Commit(); err != nil {
		return s.wrap(fmt.Sprintf("commit migration %d", m.version), err)
	}
	return nil
}

// backup copies the database (consistently, WAL included) next to it
// before a migration touches it.
func (s *Store) backup(ctx context.Context, from int) error {
	dst := fmt.Sprintf("%s.v%d-%s.bak", s.path, from, time.Now().UTC().Format("20060102T150405.000000000"))
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", dst); err != nil {
		return s.wrap("back up before migrating to "+dst, err)
	}
	// Like the journal itself, its copy is this user's alone.
	if err := os.Chmod(dst, 0o600); err != nil {
		return s.wrap("make the backup private", err)
	}
	s.opts.Log.Info("journal: backed up before migrating", "path", dst, "from_version", from)
	return nil
}

// BackupFiles lists backups taken before migrations, oldest first.
func BackupFiles(path string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	base := filepath.Base(path) + ".v"
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), base) && strings.HasSuffix(e.Name(), ".bak") {
			out = append(out, filepath.Join(filepath.Dir(path), e.Name()))
		}
	}
	return out, nil
}
