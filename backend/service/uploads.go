package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Upload is a file a client without a path (a browser, a pasted image)
// sent through POST /api/uploads: it is kept in the data dir and then
// attached by Path like any other file (docs/ARCHITECTURE.md §Attachments).
type Upload struct {
	Path string `json:"path"`
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// ErrUploadTooLarge is the refusal of a file above MaxAttachmentBytes.
var ErrUploadTooLarge = &Error{Code: CodeTooLarge,
	Message: fmt.Sprintf("the file is larger than %d MiB, the most an attachment can be", MaxAttachmentBytes>>20)}

// errUploadsFull: a body of unknown size outgrew the room left.
var errUploadsFull = errors.New("the uploads folder is full")

// SaveUpload stores body (size bytes if known, else -1) as name under the
// uploads folder, readable by this user only. A file too large is refused
// before a byte is stored when its size is known, else as soon as it
// passes the limit; either way nothing is left behind.
func (s *Service) SaveUpload(ctx context.Context, name string, size int64, body io.Reader) (Upload, error) {
	if s.uploads == "" {
		return Upload{}, &Error{Code: CodeUnavailable, Message: "uploads are not available here; attach the file by its path"}
	}
	clean, err := uploadName(name)
	if err != nil {
		return Upload{}, err
	}
	if size > MaxAttachmentBytes {
		return Upload{}, ErrUploadTooLarge
	}
	// A data folder deleted or replaced while running is not recreated
	// by an upload (docs/ARCHITECTURE.md §Durability).
	if s.guard != nil {
		if err := s.guard.Check(); err != nil {
			return Upload{}, s.classify(ctx, "store an upload", "upload", err)
		}
	}
	if err := os.MkdirAll(s.uploads, 0o700); err != nil {
		return Upload{}, s.uploadFailed("create the uploads folder", err)
	}
	limit, release, err := s.reserveUpload(ctx, size)
	if err != nil {
		return Upload{}, err
	}
	defer release()
	var id [8]byte
	_, _ = rand.Read(id[:])
	dir := filepath.Join(s.uploads, hex.EncodeToString(id[:]))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return Upload{}, s.uploadFailed("create an upload folder", err)
	}
	p := filepath.Join(dir, clean)
	n, err := writeUpload(ctx, p, body, limit)
	if err != nil {
		os.RemoveAll(dir)
		var se *Error
		switch {
		case errors.Is(err, errUploadsFull):
			return Upload{}, s.uploadsFull()
		case errors.As(err, &se):
			return Upload{}, se
		}
		return Upload{}, s.uploadFailed("store an upload", err)
	}
	if n == 0 {
		os.RemoveAll(dir)
		return Upload{}, badRequest("the file %s is empty", clean)
	}
	s.log.Info("service: upload stored", "name", clean, "bytes", n)
	return Upload{Path: p, Name: clean, Size: n}, nil
}

// writeUpload stores body at p, refusing it past limit bytes (the
// attachment limit, or less when the uploads folder is nearly full).
func writeUpload(ctx context.Context, p string, body io.Reader, limit int64) (int64, error) {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, io.LimitReader(ctxReader{ctx, body}, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return n, err
	case n > MaxAttachmentBytes:
		return n, ErrUploadTooLarge
	case n > limit:
		return n, errUploadsFull
	}
	return n, nil
}

func (s *Service) uploadFailed(what string, err error) error {
	s.log.Error("service: "+what, "err", err)
	var se *Error
	if errors.As(err, &se) {
		return se
	}
	msg := "the upload could not be stored"
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		msg = "the upload was interrupted"
	}
	return &Error{Code: CodeUnavailable, Message: msg, Err: fmt.Errorf("%s: %w", what, err)}
}

// uploadName keeps a file name a person recognises and the file system
// accepts: the last path element, no control characters, bounded length.
func uploadName(name string) (string, error) {
	name = strings.ReplaceAll(name, "\\", "/")
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if !utf8.ValidString(name) {
		return "", badRequest("the file name must be valid text")
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.TrimSpace(name))
	if name == "" || name == "." || name == ".." {
		return "", badRequest("give the file's name (?name=…)")
	}
	if len(name) > MaxNameBytes {
		return "", badRequest("the file name is longer than %d bytes", MaxNameBytes)
	}
	return name, nil
}

// ctxReader stops a copy when the request is gone.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
