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
func TryLock(path string) (*Lock, error) {
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
	return &Lock{release: f.Close}, nil
}

// IsLocked reports whether someone holds the lock on path, by trying it.
func IsLocked(path string) (bool, error) {
	l, err := TryLock(path)
	if errors.Is(err, ErrLocked) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return false, l.Unlock()
}
