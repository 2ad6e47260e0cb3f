package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The uploads folder is bounded and cleaned (docs/ARCHITECTURE.md
// §Attachments): at most DefaultUploadsQuota bytes in all, and a file no
// message refers to is removed once it is DefaultUploadsKeep old — swept
// on the next upload, never by a timer.
const (
	DefaultUploadsQuota = 256 << 20
	DefaultUploadsKeep  = 24 * time.Hour
)

// UploadRefs is implemented by a store that can say which files messages
// attach (the journal). Without it nothing is ever swept: an upload a
// message may use is never removed on a guess.
type UploadRefs interface {
	AttachedPaths(ctx context.Context) (map[string]bool, error)
}

// uploadSpace is the uploads folder's bookkeeping: bytes being written
// now, counted against the quota beside what is on disk.
type uploadSpace struct {
	mu       sync.Mutex
	inflight int64
}

// uploadDir is one upload's folder (uploads/<random>/) as the sweep sees it.
type uploadDir struct {
	path     string   // the folder
	files    []string // the files in it
	bytes    int64
	modified time.Time // the newest of the folder and its files
}

// staleUploads picks the upload folders to remove: older than keep and
// with no file a message refers to. Pure.
func staleUploads(dirs []uploadDir, referenced map[string]bool, now time.Time, keep time.Duration) []string {
	var out []string
	for _, d := range dirs {
		if now.Sub(d.modified) < keep {
			continue
		}
		used := false
		for _, f := range d.files {
			used = used || referenced[f]
		}
		if !used {
			out = append(out, d.path)
		}
	}
	return out
}

// scanUploads lists the upload folders under root.
func scanUploads(root string) ([]uploadDir, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []uploadDir
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		d := uploadDir{path: filepath.Join(root, e.Name())}
		if st, err := e.Info(); err == nil {
			d.modified = st.ModTime()
		}
		files, _ := os.ReadDir(d.path)
		for _, f := range files {
			st, err := f.Info()
			if err != nil {
				continue
			}
			d.files = append(d.files, filepath.Join(d.path, f.Name()))
			d.bytes += st.Size()
			if st.ModTime().After(d.modified) {
				d.modified = st.ModTime()
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// sweepUploads removes stale uploads and returns the bytes the folder
// still holds.
func (s *Service) sweepUploads(ctx context.Context) (int64, error) {
	dirs, err := scanUploads(s.uploads)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, d := range dirs {
		total += d.bytes
	}
	refs, ok := s.store.(UploadRefs)
	if !ok {
		return total, nil
	}
	now := time.Now()
	old := false
	for _, d := range dirs {
		old = old || now.Sub(d.modified) >= s.uploadsKeep
	}
	if !old {
		return total, nil
	}
	referenced, err := refs.AttachedPaths(ctx)
	if err != nil {
		s.log.Warn("service: uploads not swept: the attached files could not be read", "err", err)
		return total, nil
	}
	for _, p := range staleUploads(dirs, referenced, now, s.uploadsKeep) {
		if !strings.HasPrefix(p, s.uploads+string(filepath.Separator)) {
			continue // never anything outside the uploads folder
		}
		for _, d := range dirs {
			if d.path == p {
				total -= d.bytes
			}
		}
		if err := os.RemoveAll(p); err != nil {
			s.log.Warn("service: an old upload could not be removed", "path", p, "err", err)
			continue
		}
		s.log.Info("service: removed an upload no message uses", "path", p)
	}
	return total, nil
}

// reserveUpload sweeps, then sets aside room for an upload of size bytes
// (-1: unknown) and returns the most it may write; release gives the
// reservation back once the file is written (or not).
func (s *Service) reserveUpload(ctx context.Context, size int64) (limit int64, release func(), err error) {
	s.space.mu.Lock()
	defer s.space.mu.Unlock()
	used, err := s.sweepUploads(ctx)
	if err != nil {
		return 0, nil, s.uploadFailed("read the uploads folder", err)
	}
	room := s.uploadsQuota - used - s.space.inflight
	want := int64(MaxAttachmentBytes)
	if size >= 0 {
		want = size
	}
	if size >= 0 && want > room || room <= 0 {
		return 0, nil, s.uploadsFull()
	}
	limit = min(want, room)
	s.space.inflight += limit
	return limit, func() {
		s.space.mu.Lock()
		s.space.inflight -= limit
		s.space.mu.Unlock()
	}, nil
}

func (s *Service) uploadsFull() error {
	return &Error{Code: CodeTooLarge, Message: fmt.Sprintf(
		"the uploads folder is full (it keeps at most %d MiB; files no message uses are removed after %s): attach fewer or smaller files, or by their path",
		s.uploadsQuota>>20, plainHours(s.uploadsKeep))}
}

func plainHours(d time.Duration) string {
	if h := int(d.Hours()); h >= 1 {
		return fmt.Sprintf("%d hours", h)
	}
	return d.String()
}
