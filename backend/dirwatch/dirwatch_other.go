//go:build !linux

package dirwatch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// gone0 watches the parent for the directory's name going (see the Linux
// version for why the parent and not the directory itself).
func gone0(dir string) (<-chan struct{}, func(), error) {
	dir = filepath.Clean(dir)
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, err
	}
	gone := make(chan struct{})
	stop, err := watch(filepath.Dir(dir), func(fsnotify.Event) bool {
		if exists(dir) {
			return true
		}
		close(gone)
		return false
	})
	if err != nil {
		return nil, nil, err
	}
	return gone, stop, nil
}

// changes0: creates, renames and removals of dir's entries (fsnotify has no
// close-after-write event everywhere; atomic writes end in a rename).
func changes0(dir string) (<-chan struct{}, func(), error) {
	changed := make(chan struct{}, 1)
	stop, err := watch(dir, func(ev fsnotify.Event) bool {
		if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Rename) || ev.Has(fsnotify.Remove) {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
		return true
	})
	if err != nil {
		return nil, nil, err
	}
	return changed, stop, nil
}

// watch calls on for each event of dir until on returns false or stop.
func watch(dir string, on func(fsnotify.Event) bool) (func(), error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	if err := w.Add(dir); err != nil {
		w.Close()
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	var once sync.Once
	stop := func() { once.Do(func() { w.Close() }) }
	go func() {
		for {
			// Errors must be read too, or the watcher may block.
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if !on(ev) {
					stop()
					return
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return stop, nil
}

func exists(dir string) bool {
	_, err := os.Stat(dir)
	return !errors.Is(err, os.ErrNotExist)
}
