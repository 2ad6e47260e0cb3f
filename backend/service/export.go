package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	ImportSession(ctx context.Context, b bundle.Bundle, o bundle.ImportOptions) (run.Session, error)
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

// ImportRequest is POST /api/import: a bundle on this machine and, if the
// person named one, the project to file it under (else the Imported place).
type ImportRequest struct {
	Path      string `json:"path"`
	ProjectID string `json:"project_id,omitempty"`
}

// ImportResult is the imported session; AlreadyImported says the same
// bundle was imported before and this is that session (nothing new stored).
type ImportResult struct {
	run.Session
	AlreadyImported bool `json:"already_imported,omitempty"`
}

// ImportBundle reads a bundle and stores it as a new read-only session
// (docs/ARCHITECTURE.md §Bundles). A bad bundle is refused with what is
// wrong, and nothing is stored; the same bundle again gives the session it
// became the first time.
func (s *Service) ImportBundle(ctx context.Context, r io.Reader, source, projectID string) (ImportResult, error) {
	p, err := s.porter()
	if err != nil {
		return ImportResult{}, err
	}
	sum := sha256.New()
	b, err := bundle.Decode(io.TeeReader(io.LimitReader(r, MaxImportBytes), sum))
	if err != nil {
		if errors.Is(err, bundle.ErrBundle) {
			return ImportResult{}, &Error{Code: CodeBadRequest, Message: strings.TrimPrefix(err.Error(), "bundle: "), Err: err}
		}
		return ImportResult{}, s.classify(ctx, "import", "bundle", err)
	}
	_, _ = io.Copy(sum, io.LimitReader(r, MaxImportBytes)) // whatever Decode left unread
	ses, err := p.ImportSession(ctx, b, bundle.ImportOptions{Source: source, ProjectID: projectID, Digest: hex.EncodeToString(sum.Sum(nil))})
	if errors.Is(err, bundle.ErrAlreadyImported) {
		return ImportResult{Session: ses, AlreadyImported: true}, nil
	}
	if err != nil {
		return ImportResult{}, s.classify(ctx, "import", "project", err)
	}
	// The window shows it at once (the watch bus), as any new session.
	s.sessionChanged(run.SessionCreated, ses.ID, ses.ProjectID)
	return ImportResult{Session: ses}, nil
}

// ImportFile imports the bundle at req.Path (absolute), as `hermesdesk
// import` and POST /api/import do.
func (s *Service) ImportFile(ctx context.Context, req ImportRequest) (ImportResult, error) {
	path := req.Path
	if path == "" || !filepath.IsAbs(path) {
		return ImportResult{}, badRequest("give the bundle's full path")
	}
	f, err := os.Open(path)
	if err != nil {
		return ImportResult{}, &Error{Code: CodeBadRequest, Message: fmt.Sprintf("cannot open %s: %s", filepath.Base(path), plainOSError(err)), Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return ImportResult{}, &Error{Code: CodeBadRequest, Message: "cannot read " + filepath.Base(path), Err: err}
	case !st.Mode().IsRegular():
		return ImportResult{}, badRequest("%s is not a file", filepath.Base(path))
	case st.Size() > MaxImportBytes:
		return ImportResult{}, &Error{Code: CodeTooLarge, Message: fmt.Sprintf("%s is larger than %d MiB, too large to import", filepath.Base(path), MaxImportBytes>>20)}
	}
	return s.ImportBundle(ctx, f, filepath.Base(path), req.ProjectID)
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
