package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/bundle"

	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// HistorySources lists the agents' own histories found on this machine
// (docs/ARCHITECTURE.md §History). The agents' roots follow their own
// environment variables (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME,
// QWEN_HOME, XDG_DATA_HOME, HERMES_HOME) as the agents do.
func (s *Service) HistorySources(ctx context.Context) ([]history.Source, error) {
	home, _ := os.UserHomeDir()
	out := history.Find(os.Getenv, home)
	if out == nil {
		out = []history.Source{}
	}
	s.mirrors.mu.Lock()
	for i := range out {
		_, out[i].Mirror = s.mirrors.on[out[i].ID]
		out[i].Errors = append(out[i].Errors, s.mirrors.problems[out[i].ID]...)
	}
	s.mirrors.mu.Unlock()
	return out, nil
}

// HistoryImportRequest names the source to import (a Source.ID). Mirror
// true keeps importing what the agent writes, until false or the app quits;
// absent leaves the mirror as it is.
type HistoryImportRequest struct {
	Source string `json:"source"`
	Mirror *bool  `json:"mirror,omitempty"`
}

// HistoryImportResult counts what one import did; Failed says, per file,
// why it was left out (the rest is imported).
type HistoryImportResult struct {
	Source   string `json:"source"`
	Mirror   bool   `json:"mirror"`
	Imported int    `json:"imported"`
	Updated  int    `json:"updated"` // imported before, new turns added
	Already  int    `json:"already"` // imported before, nothing new
	Skipped  int    `json:"skipped"` // files with no conversation yet
	// SkippedLines: damaged lines left out (the rest of their files is
	// imported); the sources list says which and why.
	SkippedLines int             `json:"skipped_lines,omitempty"`
	Failed       []HistoryFailed `json:"failed,omitempty"`
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
	svc *Service
}

// CreateProject makes the project of a recorded folder and tells the window.
func (h historyStore) CreateProject(ctx context.Context, name, workspace string) (run.Project, error) {
	p, err := h.Store.CreateProject(ctx, name, workspace)
	if err == nil {
		h.svc.sessionChanged(run.ProjectChanged, "", p.ID)
	}
	return p, err
}

// HistoryPorter is the journal's import path for the agents' histories.
type HistoryPorter interface {
	Porter
	AppendImported(ctx context.Context, digest string, b bundle.Bundle, lastMayChange bool) (run.Session, int, error)
}

// ImportHistory imports every session of a source into the projects of
// their folders; importing again stores nothing new.
func (s *Service) ImportHistory(ctx context.Context, req HistoryImportRequest) (HistoryImportResult, error) {
	f, ok := history.FormatOf(req.Source)
	if !ok {
		var ids []string
		for _, f := range history.Formats() {
			ids = append(ids, f.Agent())
		}
		return HistoryImportResult{}, badRequest("%q is not a history source this app reads (%s)", req.Source, strings.Join(ids, ", "))
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
	s.mirrors.mu.Lock()
	delete(s.mirrors.problems, req.Source) // this import says afresh what it left out
	s.mirrors.mu.Unlock()
	st := historyStore{Store: s.store, HistoryPorter: p, svc: s}
	for _, file := range files {
		s.importHistoryFile(ctx, st, f, file, &res)
	}
	if req.Mirror != nil {
		if err := s.setHistoryMirror(st, f, src.Root, *req.Mirror); err != nil {
			return res, err
		}
	}
	s.mirrors.mu.Lock()
	_, res.Mirror = s.mirrors.on[req.Source]
	s.mirrors.mu.Unlock()
	return res, nil
}

func (s *Service) importHistoryFile(ctx context.Context, st historyStore, f history.Format, file string, res *HistoryImportResult) {
	s.mirrors.importing.Lock() // one import at a time: a mirror and a person may read the same file
	im, err := history.ImportFile(ctx, st, f, file, time.Now())
	s.mirrors.importing.Unlock()
	for _, k := range im.Skipped {
		res.SkippedLines++
		s.mirrors.problem(f.Agent(), fmt.Sprintf("%s line %d skipped: %s", file, k.Line, k.Reason))
	}
	{
		switch {
		case errors.Is(err, history.ErrNotSession):
			res.Skipped++
		case err != nil:
			s.log.Warn("history: import failed", "file", file, "err", err)
			res.Failed = append(res.Failed, HistoryFailed{File: file, Reason: MessageOf(err)})
			s.mirrors.problem(f.Agent(), file+": "+MessageOf(err))
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
}

// historyMirrors are the running mirrors by source id.
type historyMirrors struct {
	importing sync.Mutex
	mu        sync.Mutex
	on        map[string]*history.Mirror
	problems  map[string][]string // by source: the latest lines and files left out, and why
}

// maxProblems bounds the problems kept per source (the newest stay).
const maxProblems = 20

func (h *historyMirrors) problem(source, msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.problems == nil {
		h.problems = map[string][]string{}
	}
	// The same problem found again (the mirror and an import both read a
	// file) is said once; it moves to the newest place.
	p := slices.DeleteFunc(slices.Clone(h.problems[source]), func(q string) bool { return q == msg })
	p = append(p, msg)
	if len(p) > maxProblems {
		p = p[len(p)-maxProblems:]
	}
	h.problems[source] = p
}

// setHistoryMirror starts or stops a source's mirror: each file the agent
// writes is imported again (new turns only), and the window is told.
func (s *Service) setHistoryMirror(st historyStore, f history.Format, root string, on bool) error {
	if !on {
		// Closed outside the lock: Close waits for a file in progress,
		// whose import takes the lock to note a problem (a deadlock seen
		// in a test run).
		s.mirrors.mu.Lock()
		cur := s.mirrors.on[f.Agent()]
		delete(s.mirrors.on, f.Agent())
		s.mirrors.mu.Unlock()
		if cur != nil {
			_ = cur.Close()
		}
		return nil
	}
	s.mirrors.mu.Lock()
	defer s.mirrors.mu.Unlock()
	cur := s.mirrors.on[f.Agent()]
	if cur != nil {
		return nil
	}
	m, err := history.Watch(f, root, func(f history.Format, file string) {
		var res HistoryImportResult
		s.importHistoryFile(context.Background(), st, f, file, &res)
	}, s.log)
	if err != nil {
		return &Error{Code: CodeUnavailable, Message: "cannot watch " + root + ": " + err.Error(), Err: err}
	}
	if s.mirrors.on == nil {
		s.mirrors.on = map[string]*history.Mirror{}
	}
	s.mirrors.on[f.Agent()] = m
	return nil
}

// StopHistoryMirrors stops every mirror (the core is closing).
func (s *Service) StopHistoryMirrors() {
	s.mirrors.mu.Lock()
	on := s.mirrors.on
	s.mirrors.on = map[string]*history.Mirror{}
	s.mirrors.mu.Unlock()
	for _, m := range on { // outside the lock, as in setHistoryMirror
		_ = m.Close()
	}
}

var _ history.Store = historyStore{}

// historyContinuer is the journal's Continue for imported histories.
type historyContinuer interface {
	ContinueImported(ctx context.Context, sessionID string) (run.Session, error)
}

// ContinueSession makes a session imported from an agent's own history an
// ordinary session: its next message runs in that agent under the agent's
// own session id (claude --resume, Codex thread/resume), in the project's
// folder. A bundle's session stays read-only (a conflict).
func (s *Service) ContinueSession(ctx context.Context, id string) (run.Session, error) {
	c, ok := s.store.(historyContinuer)
	if !ok {
		return run.Session{}, &Error{Code: CodeUnavailable, Message: "continuing imported sessions is not available here"}
	}
	ses, err := c.ContinueImported(ctx, id)
	if err != nil {
		if CodeOf(s.classify(ctx, "continue", "session", err)) == CodeConflict {
			return run.Session{}, &Error{Code: CodeConflict, Message: "this session came from a bundle, not from the agent's own history: it stays read-only (start a new session to go on)", Err: err}
		}
		return run.Session{}, s.classify(ctx, "continue", "session", err)
	}
	if !history.ResumesNatively(ses.Agent) && s.checkpoints != nil && ses.NativeSessionID != "" {
		if ses, err = s.handOverContinued(ctx, ses); err != nil {
			return run.Session{}, err
		}
	}
	s.sessionChanged(run.SessionUpdated, ses.ID, ses.ProjectID)
	return ses, nil
}

// handOverContinued: the agent cannot reopen its own session (Gemini CLI),
// so the conversation goes to it with the first message, as a fork's does
// (fork.go agentMessage), and the session forgets the native id so no
// session/load is tried: the first run's new session id replaces it.
func (s *Service) handOverContinued(ctx context.Context, ses run.Session) (run.Session, error) {
	msgs, err := s.store.Messages(ctx, ses.ID)
	if err != nil {
		return run.Session{}, s.classify(ctx, "continue", "session", err)
	}
	if err := s.checkpoints.SetSessionHandover(ctx, ses.ID, handover(continuedIntro, msgs, "")); err != nil {
		return run.Session{}, s.classify(ctx, "continue", "session", err)
	}
	none := ""
	ses, err = s.store.UpdateSession(ctx, ses.ID, run.SessionUpdate{NativeSessionID: &none})
	if err != nil {
		return run.Session{}, s.classify(ctx, "continue", "session", err)
	}
	s.log.Info("service: continued session handed over", "session", ses.ID, "agent", ses.Agent)
	return ses, nil
}
