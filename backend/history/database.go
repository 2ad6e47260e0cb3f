package history

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3" // OpenCode and Hermes Agent keep their histories in SQLite
)

// Database is a format that keeps every conversation in one SQLite file
// (OpenCode's opencode.db, Hermes Agent's state.db). Its Discover lists one
// ref per conversation, "FILE#ID", and Read reads a ref through ReadRef;
// the mirror watches the file (and its WAL) and reads every ref again when
// it changes. docs/ARCHITECTURE.md §History.
type Database interface {
	Format
	ReadRef(ref string) (*Session, error)
	// Versions is every conversation's ref with a version that moves when
	// the conversation does (the mirror reads only those that moved).
	Versions(root string) (map[string]string, error)
}

// errNotAFile: a database format has no single-file reading.
var errNotAFile = errors.New("this agent keeps its history in a database: read it by its ref")

// refOf names one conversation in a database file.
func refOf(file, id string) string { return file + "#" + id }

// splitRef is a ref's database file and conversation id.
func splitRef(ref string) (file, id string) {
	i := strings.LastIndexByte(ref, '#')
	if i < 0 {
		return ref, ""
	}
	return ref[:i], ref[i+1:]
}

// sourceFile is the file a path or ref is read from.
func sourceFile(path string) string {
	file, _ := splitRef(path)
	return file
}

// modTime is when the source of path last changed: a database's writes
// land in its WAL first.
func modTime(path string) (time.Time, error) {
	file := sourceFile(path)
	st, err := os.Stat(file)
	if err != nil {
		return time.Time{}, err
	}
	t := st.ModTime()
	if wal, err := os.Stat(file + "-wal"); err == nil && wal.ModTime().After(t) {
		t = wal.ModTime()
	}
	return t, nil
}

// openReadOnly opens an agent's database read-only (mode=ro: never written,
// never locked for writing; a busy writer is waited for a little).
func openReadOnly(agent, file string) (*sql.DB, error) {
	if _, err := os.Stat(file); err != nil {
		return nil, fmt.Errorf("open %s history %s: %w", agent, file, err)
	}
	db, err := sql.Open("sqlite3", "file:"+url.PathEscape(file)+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		return nil, fmt.Errorf("open %s history %s: %w", agent, file, err)
	}
	return db, nil
}

// discoverDB lists the conversations of the database file under root that
// query (one id column) names; a missing file is no error.
func discoverDB(agent, file, query string) ([]string, error) {
	var out []string
	err := eachRowDB(agent, file, query, func(rows *sql.Rows) error {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		out = append(out, refOf(file, id))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// versionsDB runs query (id, version) on the database file; a missing file
// has none.
func versionsDB(agent, file, query string) (map[string]string, error) {
	out := map[string]string{}
	err := eachRowDB(agent, file, query, func(rows *sql.Rows) error {
		var id string
		var v sql.NullString
		if err := rows.Scan(&id, &v); err != nil {
			return err
		}
		out[refOf(file, id)] = v.String
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachRowDB runs query on the database file, read only, and hands each row
// to read; a missing file has no rows.
func eachRowDB(agent, file, query string, read func(*sql.Rows) error) error {
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	db, err := openReadOnly(agent, file)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(query)
	if err != nil {
		return fmt.Errorf("list %s sessions in %s: %w", agent, file, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := read(rows); err != nil {
			return fmt.Errorf("list %s sessions in %s: %w", agent, file, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list %s sessions in %s: %w", agent, file, err)
	}
	return nil
}

// matchDB: path is the database file or its WAL.
func matchDB(file, path string) bool {
	return path == file || path == file+"-wal"
}

// parseFromReader is a database format's Parse: there are no lines to read.
func parseFromReader(io.Reader, string) (*Session, error) { return nil, errNotAFile }

func unixMillis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func unixSeconds(s float64) time.Time {
	if s <= 0 {
		return time.Time{}
	}
	return time.UnixMicro(int64(s * 1e6)).UTC()
}

func cleanDir(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Clean(p)
}
