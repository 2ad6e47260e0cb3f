// Package applog writes the app's slog records to a small size-rotated file
// in the data dir: hermesdesk.log, then .1, .2 … up to Keep old files. It
// owns its files (0600) and never grows past (Keep+1)×MaxBytes.
package applog

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Defaults: a few MB of history is enough to diagnose a bad day, and small
// enough that nobody has to think about it.
const (
	DefaultMaxBytes = 1 << 20
	DefaultKeep     = 3
	FileName        = "hermesdesk.log"
)

// File is an io.WriteCloser that rotates by size. Safe for concurrent use.
type File struct {
	path     string
	maxBytes int64
	keep     int

	mu   sync.Mutex
	f    *os.File
	size int64
}

// Open opens (appending to) path, creating its directory.
func Open(path string, maxBytes int64, keep int) (*File, error) {
	if maxBytes <= 0 || keep < 0 {
		return nil, fmt.Errorf("applog: bad limits %d/%d", maxBytes, keep)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("applog: %w", err)
	}
	l := &File{path: path, maxBytes: maxBytes, keep: keep}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *File) open() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("applog: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("applog: %w", err)
	}
	l.f, l.size = f, st.Size()
	return nil
}

// Write appends p, rotating first when p would push the file past the limit.
// A record is never split across two files.
func (l *File) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return 0, os.ErrClosed
	}
	if l.size > 0 && l.size+int64(len(p)) > l.maxBytes {
		if err := l.rotate(); err != nil {
			return 0, err
		}
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	return n, err
}

// rotate shifts name.(k-1) → name.k, name → name.1, and reopens name.
func (l *File) rotate() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("applog: %w", err)
	}
	l.f = nil
	if l.keep == 0 {
		if err := os.Remove(l.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("applog: %w", err)
		}
		return l.open()
	}
	for i := l.keep - 1; i >= 1; i-- {
		err := os.Rename(l.path+"."+strconv.Itoa(i), l.path+"."+strconv.Itoa(i+1))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("applog: %w", err)
		}
	}
	if err := os.Rename(l.path, l.path+".1"); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("applog: %w", err)
	}
	return l.open()
}

// Close closes the current file.
func (l *File) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// NewNamed returns a logger writing text records to <dir>/<name> and, when
// echo is non-nil, to echo as well (stderr in a terminal). Each process
// keeps its own log (the core FileName, the window window.log), so two
// processes never rotate one file under each other.
func NewNamed(dir, name string, level slog.Leveler, echo io.Writer) (*slog.Logger, io.Closer, error) {
	f, err := Open(filepath.Join(dir, name), DefaultMaxBytes, DefaultKeep)
	if err != nil {
		return nil, nil, err
	}
	var w io.Writer = f
	if echo != nil {
		w = io.MultiWriter(f, echo)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), f, nil
}
