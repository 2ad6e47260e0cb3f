package service

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/bundle"

	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// HistorySources lists the agents' own histories found on this machine
// (docs/ARCHITECTURE.md §History). The agents' roots follow their own
// environment variables (CLAUDE_CONFIG_DIR, CODEX_HOME) as the agents do.
func (s *Service) HistorySources(ctx context.Context) ([]history.Source, error) {
	home, _ := os.UserHomeDir()
	out := history.Find(os.Getenv, home)
	if out == nil {
		out = []history.Source{}
	}
	return out, nil
}

// HistoryImportRequest names the source to import (a Source.ID).
type HistoryImportRequest struct {
	Source string `json:"source"`
}

// HistoryImportResult counts what one import did; Failed says, per file,
// why it was left out (the rest is imported).
type HistoryImportResult struct {
	Source   string          `json:"source"`
	Imported int             `json:"imported"`
	Updated  int             `json:"updated"` // imported before, new turns added
	Already  int             `json:"already"` // imported before, nothing new
	Skipped  int             `json:"skipped"` // files with no conversation yet
	Failed   []HistoryFailed `json:"failed,omitempty"`
}

// HistoryFailed is a file that was not imported, and why.
type HistoryFailed struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// historyStore is the journal as history import needs it.
type historyStore struct {
	Store
	HistoryPorter
}

// HistoryPorter is the journal's import path for the agents' histories.
type HistoryPorter interface {
	Porter
	AppendImported(ctx context.Context, digest string, b bundle.Bundle) (run.Session, int, error)
}

// ImportHistory imports every session of a source into the projects of
// their folders; importing again stores nothing new.
func (s *Service) ImportHistory(ctx context.Context, req HistoryImportRequest) (HistoryImportResult, error) {
	f, ok := history.FormatOf(req.Source)
	if !ok {
		return HistoryImportResult{}, badRequest("%q is not a history source this app reads (claude or codex)", req.Source)
	}
	p, ok := s.store.(HistoryPorter)
	if !ok {
		return HistoryImportResult{}, &Error{Code: CodeUnavailable, Message: "history import is not available here"}
	}
	home, _ := os.UserHomeDir()
	src, found := history.FindOne(f, os.Getenv, home)
	if !found {
		return HistoryImportResult{}, &Error{Code: CodeNotFound, Message: "no " + req.Source + " history on this machine"}
	}
	files, err := f.Discover(src.Root)
	if err != nil {
		return HistoryImportResult{}, &Error{Code: CodeUnavailable, Message: "cannot list " + src.Root, Err: err}
	}
	res := HistoryImportResult{Source: req.Source}
	st := historyStore{Store: s.store, HistoryPorter: p}
	for _, file := range files {
		im, err := history.ImportFile(ctx, st, f, file, time.Now())
		switch {
		case errors.Is(err, history.ErrNotSession):
			res.Skipped++
		case err != nil:
			s.log.Warn("history: import failed", "file", file, "err", err)
			res.Failed = append(res.Failed, HistoryFailed{File: file, Reason: MessageOf(err)})
		case im.Created:
			res.Imported++
			s.sessionChanged(run.SessionCreated, im.Session.ID, im.Session.ProjectID)
		case im.Added > 0:
			res.Updated++
			s.sessionChanged(run.SessionUpdated, im.Session.ID, im.Session.ProjectID)
		default:
			res.Already++
		}
	}
	return res, nil
}

var _ history.Store = historyStore{}
