package changes

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Temporary folders of snapshots: one per Snapshots, holding the index
// copy (and git's index.lock beside it) and the object store, and a lock
// file its process holds open for as long as it lives. A process killed
// mid-snapshot leaves its folder behind; the next Snapshots opened finds
// it unlocked and removes it (docs/ARCHITECTURE.md §Events, "file.changed").
const (
	tempPrefix   = "hermesdesk-snapshot-"
	makingPrefix = "hermesdesk-snapshot.making-"
	lockName     = "in-use"
	// oldIndexPrefix: earlier releases copied the index to a loose temp
	// file; a killed one left it (and its .lock) behind.
	oldIndexPrefix = "hermesdesk-index-"
	oldIndexAge    = time.Hour
)

type tempDir struct {
	dir  string
	lock *os.File
}

func newTempDir() (*tempDir, error) {
	root := os.TempDir()
	sweepStale(root)
	// Made under another name and renamed once locked, so a sweep never
	// sees a live folder whose lock is not yet taken.
	making, err := os.MkdirTemp(root, makingPrefix+"*")
	if err != nil {
		return nil, err
	}
	lock, err := holdLock(filepath.Join(making, lockName))
	if err != nil {
		os.RemoveAll(making)
		return nil, err
	}
	dir := filepath.Join(root, tempPrefix+strings.TrimPrefix(filepath.Base(making), makingPrefix))
	if err := os.Rename(making, dir); err != nil {
		lock.Close()
		os.RemoveAll(making)
		return nil, err
	}
	t := &tempDir{dir: dir, lock: lock}
	if err := os.MkdirAll(t.objects(), 0o700); err != nil {
		t.remove()
		return nil, err
	}
	return t, nil
}

func (t *tempDir) index() string   { return filepath.Join(t.dir, "index") }
func (t *tempDir) objects() string { return filepath.Join(t.dir, "objects") }

func (t *tempDir) remove() error {
	if t.lock != nil {
		t.lock.Close()
		t.lock = nil
	}
	return os.RemoveAll(t.dir)
}

// sweepStale removes the snapshot folders no live process holds, and old
// index copies of earlier releases.
func sweepStale(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(root, e.Name())
		switch {
		case e.IsDir() && strings.HasPrefix(e.Name(), tempPrefix):
			if stale(filepath.Join(p, lockName)) {
				if err := os.RemoveAll(p); err != nil {
					slog.Warn("remove a stale snapshot folder", "dir", p, "err", err)
				}
			}
		case e.IsDir() && strings.HasPrefix(e.Name(), makingPrefix):
			// Killed between making and renaming it: a moment's work.
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > time.Minute {
				os.RemoveAll(p)
			}
		case !e.IsDir() && strings.HasPrefix(e.Name(), oldIndexPrefix):
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > oldIndexAge {
				os.Remove(p)
			}
		}
	}
}

// stale: the lock file can be taken: its holder is gone.
func stale(lockPath string) bool {
	fi, err := os.Stat(lockPath)
	if errors.Is(err, os.ErrNotExist) {
		return true // not one of ours as made: every folder gets its lock first
	}
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return lockFree(lockPath)
}
