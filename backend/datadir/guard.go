// Package datadir watches the data folder a running supervisor depends on:
// deleted or replaced (its inode changed), database files made read-only,
// or the disk under it full. The supervisor refuses new runs while one of
// these holds, and deep health reports it, rather than accepting work that
// then fails or is silently lost (docs/ARCHITECTURE.md §Durability).
//
// The checks are a few stat/access/statfs calls: cheap enough for every
// start of a run and every deep health request.
package datadir

import (
	"errors"
	"fmt"
	"os"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

// The conditions Check reports, in the one error vocabulary (all members
// of errdefs.ErrUnavailable); Message says them in words for people.
var (
	ErrGone     = errdefs.ErrDataDirGone
	ErrReadOnly = errdefs.ErrReadOnly
	ErrDiskFull = errdefs.ErrDiskFull
)

var messages = []struct {
	err error
	msg string
}{
	{ErrGone, "the data folder was deleted or replaced while Hermes Desk was running (restart Hermes Desk to go on)"},
	{ErrReadOnly, "the database files in the data folder are read-only"},
	{ErrDiskFull, "the disk holding the data folder is full"},
}

// MinFree is the free space below which the disk counts as full: a run's
// journal needs room for its events and the WAL's growth.
const MinFree = 8 << 20

// Guard remembers which data folder and database it was opened on.
type Guard struct {
	// held keeps the folder's inode allocated (an unlinked folder's inode
	// number could otherwise be reused at once by the next one created).
	// The journal holds the database open, which does the same for it.
	held    *os.File
	dir, db string
	dirID   fileID
	dbID    fileID
	minFree uint64
}

// Open records the identity of dir and of the database file db (which
// must exist: open the journal first).
func Open(dir, db string) (*Guard, error) {
	g := &Guard{dir: dir, db: db, minFree: MinFree}
	var err error
	if g.held, err = os.Open(dir); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	if g.dirID, err = identity(dir); err == nil {
		g.dbID, err = identity(db)
	}
	if err != nil {
		g.held.Close()
		return nil, fmt.Errorf("data folder: %w", err)
	}
	return g, nil
}

// Close lets the folder go.
func (g *Guard) Close() error {
	if g == nil || g.held == nil {
		return nil
	}
	return g.held.Close()
}

// Check reports the first problem found (ErrGone, ErrReadOnly or
// ErrDiskFull, wrapped with the detail for logs), or nil.
func (g *Guard) Check() error {
	if g == nil {
		return nil
	}
	for _, f := range []struct {
		path string
		id   fileID
	}{{g.dir, g.dirID}, {g.db, g.dbID}} {
		id, err := identity(f.path)
		if errors.Is(err, os.ErrNotExist) || err == nil && id != f.id {
			return fmt.Errorf("%w (%s)", ErrGone, f.path)
		}
		if err != nil {
			return fmt.Errorf("%w (%s: %v)", ErrGone, f.path, err)
		}
	}
	for _, p := range []string{g.dir, g.db, g.db + "-wal", g.db + "-shm"} {
		if err := writable(p); err != nil {
			return fmt.Errorf("%w (%s: %v)", ErrReadOnly, p, err)
		}
	}
	if free, err := freeBytes(g.dir); err == nil && free < g.minFree {
		return fmt.Errorf("%w (%d bytes free)", ErrDiskFull, free)
	}
	return nil
}

// Message is err's condition in words for people, when it is one of
// Check's.
func Message(err error) (string, bool) {
	for _, m := range messages {
		if errors.Is(err, m.err) {
			return m.msg, true
		}
	}
	return "", false
}
