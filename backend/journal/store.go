package journal

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Options tune a Store. The zero value is sensible.
type Options struct {
	// BusyTimeout is how long a transaction waits for another process's
	// write lock before failing (default 10 s). It is what keeps
	// SQLITE_BUSY away from callers when shims and the app write at once.
	BusyTimeout time.Duration
	// MaxBatch caps events per group-commit transaction (default 1000).
	MaxBatch int
	// OnCommit is called after each commit with the committed events, in
	// seq order per run. It runs on the commit goroutine: it must not block
	// long (the shim pushes the events to its subscribers from it).
	OnCommit func([]run.Event)
	// Log receives the journal's diagnostics (commit retries, migrations,
	// backups); nil: slog.Default(). The shim passes its run's logger so
	// they land in shim.log in its format.
	Log *slog.Logger

	// maxPageCount, when set, caps the database size on every connection
	// (PRAGMA max_page_count): tests use it to simulate a full disk.
	maxPageCount int
}

// Store is an open journal. It is safe for concurrent use.
type Store struct {
	path string
	db   *sql.DB
	opts Options

	queue   chan *item
	stop    chan struct{}
	stopped chan struct{}
	closed  atomic.Bool
	once    sync.Once

	wmu     sync.Mutex
	writers map[string]*Writer

	unknownTypes atomic.Uint64
	// walBytes approximates what this process added to the WAL since its
	// last checkpoint; walWritten wakes checkpointLoop after a commit.
	walBytes atomic.Int64
	// checkpointMu keeps this process's checkpoints one at a time: SQLite
	// answers a TRUNCATE that meets a running PASSIVE one with "busy" at
	// once, without waiting (a flaky test showed it).
	checkpointMu sync.Mutex
	walWritten   chan struct{}
	// checkpointed is called after each passive checkpoint, and
	// checkpointWait replaces checkpointEvery when set (tests).
	checkpointed   atomic.Pointer[func()]
	checkpointWait atomic.Int64
}

// Stats are counters a caller may log or show in deep health.
type Stats struct {
	// UnknownEventTypes counts appended events whose type this build does
	// not know (accepted: the list is open).
	UnknownEventTypes uint64
}

const sqliteHeader = "SQLite format 3\x00"

// Open opens (creating if needed) the journal at path, migrates its schema
// and starts the group-commit writer.
func Open(path string, opts Options) (*Store, error) {
	return open(path, opts, SchemaVersion)
}

// open is Open migrating only up to schema version target (tests build
// databases of every earlier version with it).
func open(path string, opts Options, target int) (*Store, error) {
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("journal: open %q: invalid database path", path)
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 10 * time.Second
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 1000
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fsError("create data dir "+filepath.Dir(path), err)
	}
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	if err := privateFiles(path); err != nil {
		return nil, err
	}
	db := sql.OpenDB(&connector{dsn: path + "?_txlock=immediate", drv: newDriver(opts)})
	// Reads run concurrently in WAL; writers serialize on SQLite's lock.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(4)
	s := &Store{
		path:    path,
		db:      db,
		opts:    opts,
		queue:   make(chan *item, 8192),
		stop:    make(chan struct{}),
		stopped: make(chan struct{}),
		writers: map[string]*Writer{},
		// One slot: commits that arrive while the loop is busy fold into
		// one wake-up.
		walWritten: make(chan struct{}, 1),
	}
	ctx := context.Background()
	if err := s.migrateTo(ctx, target); err != nil {
		db.Close()
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, s.wrap("open commit connection", err)
	}
	go s.commitLoop(conn)
	go s.checkpointLoop()
	return s, nil
}

// A checkpoint runs once this process has committed about
// checkpointBytes since the last one (SQLite's own default is 1000 pages,
// 4 MB), or checkpointEvery after the first commit it has not yet
// checkpointed, whichever comes first.
const (
	checkpointBytes = 4 << 20
	checkpointEvery = 2 * time.Second
)

// checkpointLoop runs PASSIVE checkpoints: they never block writers (of
// this or any other process) and skip what readers still need. Every
// process with a Store runs one for what it wrote, so the WAL stays small
// whoever writes. It is driven by commits (walWritten): an idle process
// with nothing to checkpoint never wakes (docs/ARCHITECTURE.md §Idle).
func (s *Store) checkpointLoop() {
	var due <-chan time.Time // armed while commits wait for a checkpoint
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case <-s.stop:
			return
		case <-s.walWritten:
			if s.walBytes.Load() < checkpointBytes {
				if due == nil {
					wait := checkpointEvery
					if d := s.checkpointWait.Load(); d > 0 {
						wait = time.Duration(d)
					}
					timer = time.NewTimer(wait)
					due = timer.C
				}
				continue
			}
		case <-due:
		}
		if timer != nil {
			timer.Stop()
			timer, due = nil, nil
		}
		s.checkpointPassive()
	}
}

// checkpointPassive checkpoints what this process wrote since the last one.
func (s *Store) checkpointPassive() {
	n := s.walBytes.Load()
	if n == 0 {
		return
	}
	s.walBytes.Add(-n)
	var busy, logPages, done int
	s.checkpointMu.Lock()
	defer s.checkpointMu.Unlock()
	err := s.db.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logPages, &done)
	if err != nil && !s.closed.Load() {
		s.opts.Log.Debug("journal: checkpoint", "err", err)
	}
	if f := s.checkpointed.Load(); f != nil {
		(*f)()
	}
}

// Checkpoint copies the WAL into the database and truncates the WAL file,
// waiting (up to the busy timeout) for readers in the way. Call it off the
// commit path, e.g. after a large run: PASSIVE checkpoints never shrink the
// file, so one long run can leave a WAL of hundreds of MB behind.
func (s *Store) Checkpoint(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	var busy, logPages, done int
	s.checkpointMu.Lock()
	defer s.checkpointMu.Unlock()
	if err := s.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logPages, &done); err != nil {
		return s.wrap("checkpoint", err)
	}
	if busy != 0 {
		return fmt.Errorf("journal: checkpoint: readers or writers were in the way (%d of %d pages)", done, logPages)
	}
	return nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// DB exposes the handle for read-only diagnostics in tests and tools.
func (s *Store) DB() *sql.DB { return s.db }

// Stats returns the store's counters.
func (s *Store) Stats() Stats {
	return Stats{UnknownEventTypes: s.unknownTypes.Load()}
}

// Close drains the commit queue (everything already appended is
// committed), stops the writer and closes the database.
func (s *Store) Close() error {
	var err error
	s.once.Do(func() {
		s.closed.Store(true)
		close(s.stop)
		<-s.stopped
		err = s.db.Close()
	})
	return err
}

func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fsError("open "+path, err)
	}
	defer f.Close()
	buf := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, buf)
	if n == 0 && (err == io.EOF || err == nil) {
		return nil // an empty file becomes a new database
	}
	if n < len(buf) || !bytes.Equal(buf, []byte(sqliteHeader)) {
		return fmt.Errorf("journal: open %s: %w (it is not an SQLite file; move it aside or point HERMESDESK_HOME elsewhere)", path, ErrNotDatabase)
	}
	return nil
}

// privateFiles creates the database file 0600 before SQLite opens it —
// SQLite gives the -wal and -shm it creates the database file's mode, where
// left to the umask all three were readable by other users — and tightens
// the files of an existing journal (docs/ARCHITECTURE.md §Security, files).
func privateFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS) {
		return fsError("create "+path, err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		if err != nil || runtime.GOOS == "windows" || st.Mode().Perm()&0o077 == 0 {
			continue
		}
		if err := os.Chmod(p, st.Mode().Perm()&0o600); err != nil {
			return fmt.Errorf("journal: %s can be read by other users and could not be made private (%w); run chmod 600 on it", p, err)
		}
	}
	return nil
}

// connector lets each Store carry its own per-connection pragmas.
type connector struct {
	dsn string
	drv *sqlite3.SQLiteDriver
}

func (c *connector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c *connector) Driver() driver.Driver                        { return c.drv }

func newDriver(opts Options) *sqlite3.SQLiteDriver {
	pragmas := []string{
		fmt.Sprintf("PRAGMA busy_timeout = %d", opts.BusyTimeout.Milliseconds()),
		"PRAGMA journal_mode = WAL",
		// FULL: with grouped commits it costs a few percent and a committed
		// event survives power loss, not only a process crash (docs/ARCHITECTURE.md §Durability).
		"PRAGMA synchronous = FULL",
		"PRAGMA foreign_keys = ON",
		// Checkpoints run on their own goroutine (checkpointLoop), not
		// inside whichever commit crosses the threshold: a checkpoint
		// fsyncs the database file and would stall that commit's waiters
		// for tens of milliseconds.
		"PRAGMA wal_autocheckpoint = 0",
		"PRAGMA journal_size_limit = 67108864",
	}
	if runtime.GOOS == "darwin" {
		pragmas = append(pragmas, "PRAGMA fullfsync = ON")
	}
	if opts.maxPageCount > 0 {
		pragmas = append(pragmas, fmt.Sprintf("PRAGMA max_page_count = %d", opts.maxPageCount))
	}
	return &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		for _, p := range pragmas {
			if _, err := c.Exec(p, nil); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
		}
		return nil
	}}
}

// wrap classifies a database error into the package's sentinels, naming the
// operation and the file, and keeps the original error in the chain.
func (s *Store) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("journal: %s: %w", op, err)
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
			return fmt.Errorf("journal: %s: %s: %w: %w", op, s.path, ErrNotDatabase, err)
		case sqlite3.ErrFull:
			return fmt.Errorf("journal: %s: %s: %w: %w", op, s.path, ErrDiskFull, err)
		case sqlite3.ErrReadonly:
			return fmt.Errorf("journal: %s: %s: %w: %w", op, s.path, ErrReadOnly, err)
		case sqlite3.ErrCantOpen, sqlite3.ErrPerm, sqlite3.ErrAuth:
			if dirReadOnly(s.path) {
				return fmt.Errorf("journal: %s: %s: %w: %w", op, s.path, ErrReadOnly, err)
			}
		case sqlite3.ErrIoErr:
			if errors.Is(se.SystemErrno, syscall.ENOSPC) {
				return fmt.Errorf("journal: %s: %s: %w: %w", op, s.path, ErrDiskFull, err)
			}
			if errors.Is(se.SystemErrno, syscall.EROFS) || errors.Is(se.SystemErrno, syscall.EACCES) {
				return fmt.Errorf("journal: %s: %s: %w: %w", op, s.path, ErrReadOnly, err)
			}
		}
	}
	return fmt.Errorf("journal: %s: %s: %w", op, s.path, err)
}

func fsError(op string, err error) error {
	switch {
	case errors.Is(err, syscall.EROFS), errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("journal: %s: %w: %w", op, ErrReadOnly, err)
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("journal: %s: %w: %w", op, ErrDiskFull, err)
	}
	return fmt.Errorf("journal: %s: %w", op, err)
}

// dirReadOnly reports whether the database's directory refuses writes
// (SQLite reports that as "unable to open database file").
func dirReadOnly(path string) bool {
	f, err := os.CreateTemp(filepath.Dir(path), ".hermesdesk-probe-*")
	if err != nil {
		return errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return false
}

func isTransient(err error) bool {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	return se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked || se.Code == sqlite3.ErrFull ||
		(se.Code == sqlite3.ErrIoErr && errors.Is(se.SystemErrno, syscall.ENOSPC))
}

func nowNanos() int64 { return time.Now().UnixNano() }

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}
