//go:build unix

package control

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// TryLock takes an exclusive flock on path (creating it 0600) without
// waiting; ErrLocked if someone holds it. flock locks belong to the open
// file description, so two TryLocks in one process also exclude each other.
//
// The description is shared with any child forked while it is open, until
// that child execs (O_CLOEXEC only closes it at exec). Unlock therefore
// closes under syscall.ForkLock, which every fork of this process holds
// until its child has exec'd (Linux: vfork): once Unlock returns, no
// process holds the lock (docs/ARCHITECTURE.md §Fencing).
func TryLock(path string) (*Lock, error) {
	return tryLock(path, true)
}

func tryLock(path string, forkSafeClose bool) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		f.Close()
		return nil, ErrLocked
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !forkSafeClose {
		return &Lock{release: f.Close}, nil
	}
	return &Lock{release: func() error {
		syscall.ForkLock.RLock()
		defer syscall.ForkLock.RUnlock()
		return f.Close()
	}}, nil
}

// IsLocked reports whether someone holds the lock on path, by trying it.
// The probe's descriptor lives only while ForkLock is held for reading, so
// no child of this process can fork with it and keep a free lock looking
// held after the probe (a queued run taken for one a shim owns).
func IsLocked(path string) (bool, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	l, err := tryLock(path, false)
	if errors.Is(err, ErrLocked) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return false, l.Unlock()
}
