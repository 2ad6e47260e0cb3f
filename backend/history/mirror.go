package history

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// Mirror watches one source's folder (fsnotify: woken by the kernel, no
// polling) and calls on with each session file that was written or
// created. Bursts of writes to one file coalesce into one call; removals
// and renames call nothing (the imported copy stays when the agent deletes
// its file). docs/ARCHITECTURE.md §History.
type Mirror struct {
	f    Format
	root string
	on   func(Format, string)
	log  *slog.Logger
	w    *fsnotify.Watcher

	// versions: a database format's conversations as last seen (touched
	// by the events goroutine only).
	versions map[string]string

	mu    sync.Mutex
	dirty map[string]bool
	wake  chan struct{}
	done  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
}

// Watch starts mirroring f's files under root. The callback runs on one
// goroutine, one file at a time.
func Watch(f Format, root string, on func(Format, string), log *slog.Logger) (*Mirror, error) {
	if log == nil {
		log = slog.Default()
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s history: %w", f.Agent(), err)
	}
	m := &Mirror{f: f, root: root, on: on, log: log, w: w, dirty: map[string]bool{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	dir := f.WatchDir(root)
	if db, isDB := f.(Database); isDB {
		// One database file: its folder alone (not the agent's other
		// folders below it) tells of every write to it and its WAL.
		if err := w.Add(dir); err != nil {
			w.Close()
			return nil, fmt.Errorf("watch %s: %w", dir, err)
		}
		if m.versions, err = db.Versions(root); err != nil {
			m.log.Warn("history mirror: cannot list the sessions", "agent", f.Agent(), "err", err)
		}
	} else if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		// Not made yet (the agent never ran here): watch for it.
		if err := w.Add(root); err != nil {
			w.Close()
			return nil, fmt.Errorf("watch %s: %w", root, err)
		}
	} else if err := m.addTree(dir, false); err != nil {
		w.Close()
		return nil, err
	}
	m.wg.Add(2)
	go m.events()
	go m.work()
	return m, nil
}

// Close stops watching; a call in progress finishes first.
func (m *Mirror) Close() error {
	m.once.Do(func() { close(m.done) })
	err := m.w.Close()
	m.wg.Wait()
	return err
}

// addTree watches dir and its subfolders; fresh: the folder just appeared,
// so the files already in it were written unseen and are marked dirty.
func (m *Mirror) addTree(dir string, fresh bool) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // gone or unreadable meanwhile: nothing to watch
		}
		if d.IsDir() {
			if err := m.w.Add(p); err != nil {
				return fmt.Errorf("watch %s: %w", p, err)
			}
			return nil
		}
		if fresh && m.f.Match(m.root, p) {
			m.mark(p)
		}
		return nil
	})
}

func (m *Mirror) mark(p string) {
	m.mu.Lock()
	m.dirty[p] = true
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// markChanged marks the conversations of a database format whose version
// moved since the mirror last looked: a write to the file does not say
// which one changed, and reading them all on every write of a busy agent
// would be wasteful.
func (m *Mirror) markChanged() {
	db := m.f.(Database)
	now, err := db.Versions(m.root)
	if err != nil {
		m.log.Warn("history mirror: cannot list the sessions", "agent", m.f.Agent(), "err", err)
		return
	}
	for ref, v := range now {
		if m.versions[ref] != v {
			m.mark(ref)
		}
	}
	m.versions = now
}

func (m *Mirror) events() {
	defer m.wg.Done()
	watchDir := m.f.WatchDir(m.root)
	for {
		select {
		case ev, ok := <-m.w.Events:
			if !ok {
				return
			}
			if !ev.Has(fsnotify.Write) && !ev.Has(fsnotify.Create) {
				continue // Remove, Rename, Chmod: the imported copy stays as it is
			}
			if _, isDB := m.f.(Database); isDB {
				if m.f.Match(m.root, ev.Name) {
					m.markChanged()
				}
				continue
			}
			if ev.Has(fsnotify.Create) {
				if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
					if ev.Name == watchDir || isUnder(watchDir, ev.Name) {
						if err := m.addTree(ev.Name, true); err != nil {
							m.log.Warn("history mirror: cannot watch a new folder", "dir", ev.Name, "err", err)
						}
					}
					continue
				}
			}
			if m.f.Match(m.root, ev.Name) {
				m.mark(ev.Name)
			}
		case err, ok := <-m.w.Errors:
			if !ok {
				return
			}
			m.log.Warn("history mirror: watch error", "agent", m.f.Agent(), "err", err)
		}
	}
}

func (m *Mirror) work() {
	defer m.wg.Done()
	for {
		select {
		case <-m.done:
			return
		case <-m.wake:
		}
		m.mu.Lock()
		batch := m.dirty
		m.dirty = map[string]bool{}
		m.mu.Unlock()
		for p := range batch {
			select {
			case <-m.done:
				return
			default:
			}
			m.on(m.f, p)
		}
	}
}

func isUnder(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && !filepath.IsAbs(rel) && len(rel) > 0 && rel[0] != '.'
}
