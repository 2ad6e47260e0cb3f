package service

import (
	"context"
	"os"

	"github.com/hermesdesk/hermesdesk/backend/history"
)

// HistoryOffer is one source's conversations not imported yet, for the
// first-start offer ("142 Claude Code sessions, 38 Codex sessions —
// import?"; docs/ARCHITECTURE.md §History).
type HistoryOffer struct {
	Source string `json:"source"` // POST /api/history/import {source}
	Name   string `json:"name"`
	Root   string `json:"root"`
	New    int    `json:"new"`
}

// historyImported is the journal's list of what was imported.
type historyImported interface {
	ImportedHistoryIDs(ctx context.Context, agent string) (map[string]bool, error)
}

// HistoryOffers lists, per source found on this machine, how many of its
// conversations were never imported (continued ones count as imported);
// sources with none are left out.
func (s *Service) HistoryOffers(ctx context.Context) ([]HistoryOffer, error) {
	j, ok := s.store.(historyImported)
	if !ok {
		return nil, &Error{Code: CodeUnavailable, Message: "history import is not available here"}
	}
	home, _ := os.UserHomeDir()
	out := []HistoryOffer{}
	for _, src := range history.Find(os.Getenv, home) {
		f, _ := history.FormatOf(src.ID)
		done, err := j.ImportedHistoryIDs(ctx, src.ID)
		if err != nil {
			return nil, s.classify(ctx, "list", "imported histories", err)
		}
		n, err := history.Unimported(f, src.Root, done)
		if err != nil {
			s.log.Warn("history: cannot count a source", "source", src.ID, "err", err)
			continue
		}
		if n > 0 {
			out = append(out, HistoryOffer{Source: src.ID, Name: src.Name, Root: src.Root, New: n})
		}
	}
	return out, nil
}
