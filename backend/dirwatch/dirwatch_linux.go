//go:build linux

package dirwatch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// gone0 asks inotify about the directory's name in its parent: entries of
// the parent deleted or moved away (IN_DELETE, IN_MOVED_FROM), and the
// parent itself deleted or moved. The directory's own IN_DELETE_SELF is not
// enough: it comes only once the last reference to the directory is gone,
// and a shim running from a program file inside the data dir holds one for
// its whole life. Nothing written inside the directory wakes the watcher.
// The inotify fd is non-blocking and read through the Go runtime's poller,
// so no OS thread waits in a read.
func gone0(dir string) (<-chan struct{}, func(), error) {
	dir = filepath.Clean(dir)
	fd, err := inotifyInit()
	if err != nil {
		return pollGone(dir)
	}
	const mask = unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR
	watch := func() error {
		_, err := unix.InotifyAddWatch(fd, filepath.Dir(dir), mask)
		return err
	}
	if err := watch(); err != nil {
		unix.Close(fd)
		return nil, nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	f := os.NewFile(uintptr(fd), "inotify:"+dir)
	gone := make(chan struct{})
	var once sync.Once
	stop := func() { once.Do(func() { f.Close() }) }
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			if err != nil {
				// Closed by stop, or the watch broke: say nothing then.
				return
			}
			if n > 0 && !exists(dir) {
				close(gone)
				stop()
				return
			}
			// A sibling went, or the parent moved while the path still
			// resolves (a new parent took its name): watch what the path's
			// parent is now (the same inode is a no-op).
			if err := watch(); err != nil && !exists(dir) {
				close(gone)
				stop()
				return
			}
		}
	}()
	// The directory may have gone between the caller's look and the watch.
	if !exists(dir) {
		stop()
		return nil, nil, fmt.Errorf("watch %s: %w", dir, os.ErrNotExist)
	}
	return gone, stop, nil
}

func exists(dir string) bool {
	_, err := os.Stat(dir)
	return !errors.Is(err, os.ErrNotExist)
}

func changes0(dir string) (<-chan struct{}, func(), error) {
	fd, err := inotifyInit()
	if err != nil {
		return pollChanges(dir)
	}
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE|unix.IN_MOVED_TO|unix.IN_MOVED_FROM|unix.IN_DELETE|unix.IN_CLOSE_WRITE|unix.IN_ONLYDIR); err != nil {
		unix.Close(fd)
		return nil, nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	f := os.NewFile(uintptr(fd), "inotify:"+dir)
	arrived := make(chan struct{}, 1)
	var once sync.Once
	stop := func() { once.Do(func() { f.Close() }) }
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := f.Read(buf); err != nil {
				return
			}
			select {
			case arrived <- struct{}{}:
			default:
			}
		}
	}()
	return arrived, stop, nil
}

// inotifyInit is a non-blocking inotify instance; a var so that a test can
// take the limit's place (EMFILE when the user's instances are used up).
var inotifyInit = func() (int, error) {
	return unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
}
