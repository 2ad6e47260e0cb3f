package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Porter is what export and import need from the journal
// (docs/ARCHITECTURE.md §Bundles). A store without it answers unavailable.
type Porter interface {
	ExportSession(ctx context.Context, sessionID, runID string) (bundle.Bundle, error)
	ImportSession(ctx context.Context, b bundle.Bundle, source string) (run.Session, error)
}

// MaxImportBytes bounds a bundle read for import.
const MaxImportBytes = 512 << 20

// Export is a session (or one run) as a file for people or for another
// Hermes Desk.
type Export struct {
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	Content     string `json:"content"`
}

// Export formats.
const (
	ExportMarkdown = "markdown"
	ExportBundle   = "bundle"
)

func (s *Service) porter() (Porter, error) {
	p, ok := s.store.(Porter)
	if !ok {
		return nil, &Error{Code: CodeUnavailable, Message: "export and import are not available here"}
	}
	return p, nil
}

// ExportSession renders a session, or one of its runs when runID is set, as
// Markdown or as a portable bundle.
func (s *Service) ExportSession(ctx context.Context, sessionID, runID, format string) (Export, error) {
	if format == "" {
		format = ExportMarkdown
	}
	if format != ExportMarkdown && format != ExportBundle {
		return Export{}, badRequest(`format must be "markdown" or "bundle"`)
	}
	p, err := s.porter()
	if err != nil {
		return Export{}, err
	}
	b, err := p.ExportSession(ctx, sessionID, runID)
	if err != nil {
		return Export{}, s.classify(ctx, "export", "session or run", err)
	}
	name := fileStem(b.Manifest.Session.Title, sessionID)
	if format == ExportMarkdown {
		return Export{Filename: name + ".md", ContentType: "text/markdown; charset=utf-8", Content: bundle.Markdown(b)}, nil
	}
	var buf bytes.Buffer
	if err := bundle.Encode(&buf, b); err != nil {
		return Export{}, s.classify(ctx, "export", "session", err)
	}
	return Export{Filename: name + ".hdbundle.jsonl", ContentType: "application/x-ndjson", Content: buf.String()}, nil
}

var unsafeName = regexp.MustCompile(`[^\p{L}\p{N}._-]+`)

func fileStem(title, id string) string {
	stem := strings.Trim(unsafeName.ReplaceAllString(title, "-"), "-.")
	if len(stem) > 60 {
		stem = strings.TrimRight(stem[:60], "-.")
	}
	if stem == "" {
		stem = id
	}
	return stem
}

// ImportBundle reads a bundle and stores it as a new read-only session. A
// bad bundle is refused with what is wrong, and nothing is stored.
func (s *Service) ImportBundle(ctx context.Context, r io.Reader, source string) (run.Session, error) {
	p, err := s.porter()
	if err != nil {
		return run.Session{}, err
	}
	b, err := bundle.Decode(io.LimitReader(r, MaxImportBytes))
	if err != nil {
		if errors.Is(err, bundle.ErrBundle) {
			return run.Session{}, &Error{Code: CodeBadRequest, Message: strings.TrimPrefix(err.Error(), "bundle: "), Err: err}
		}
		return run.Session{}, s.classify(ctx, "import", "bundle", err)
	}
	ses, err := p.ImportSession(ctx, b, source)
	return ses, s.classify(ctx, "import", "bundle", err)
}

// ImportFile imports the bundle at path (absolute), as `hermesdesk import`
// and POST /api/import do.
func (s *Service) ImportFile(ctx context.Context, path string) (run.Session, error) {
	if path == "" || !filepath.IsAbs(path) {
		return run.Session{}, badRequest("give the bundle's full path")
	}
	f, err := os.Open(path)
	if err != nil {
		return run.Session{}, &Error{Code: CodeBadRequest, Message: fmt.Sprintf("cannot open %s: %s", filepath.Base(path), plainOSError(err)), Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return run.Session{}, &Error{Code: CodeBadRequest, Message: "cannot read " + filepath.Base(path), Err: err}
	case !st.Mode().IsRegular():
		return run.Session{}, badRequest("%s is not a file", filepath.Base(path))
	case st.Size() > MaxImportBytes:
		return run.Session{}, &Error{Code: CodeTooLarge, Message: fmt.Sprintf("%s is larger than %d MiB, too large to import", filepath.Base(path), MaxImportBytes>>20)}
	}
	return s.ImportBundle(ctx, f, filepath.Base(path))
}

func plainOSError(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no such file"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	return "it cannot be read"
}
