package supervisor

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// JournalStore adapts a journal.Store to Store.
type JournalStore struct{ J *journal.Store }

var _ Store = JournalStore{}

// mapErr wraps journal sentinels into the supervisor's own, keeping both.
func mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, journal.ErrNotFound):
		return fmt.Errorf("%w: %w", ErrStoreNotFound, err)
	case errors.Is(err, journal.ErrConflict):
		return fmt.Errorf("%w: %w", ErrStoreConflict, err)
	case errors.Is(err, journal.ErrRunTerminal):
		return fmt.Errorf("%w: %w", ErrStoreRunTerminal, err)
	}
	return err
}

func (s JournalStore) Submit(ctx context.Context, req Submit) (Submission, error) {
	sub, err := s.J.Submit(ctx, journal.SubmitRequest{
		SessionID: req.SessionID, Message: req.Message, ClientRequestID: req.ClientRequestID,
		Agent: req.Agent, Model: req.Model, Attachments: req.Attachments,
	})
	return Submission{Turn: sub.Turn, Run: sub.Run, Existing: sub.Existing}, mapErr(err)
}

func (s JournalStore) GetRun(ctx context.Context, id string) (run.Run, error) {
	r, err := s.J.GetRun(ctx, id)
	return r, mapErr(err)
}

// activeLimit bounds one listing of active runs; far above any real count.
const activeLimit = 100000

func (s JournalStore) ActiveRuns(ctx context.Context) ([]run.Run, error) {
	rs, err := s.J.ListRuns(ctx, journal.RunFilter{Active: true, Limit: activeLimit})
	if err != nil {
		return nil, mapErr(err)
	}
	slices.Reverse(rs) // the journal lists newest first
	return rs, nil
}

func (s JournalStore) GetSession(ctx context.Context, id string) (run.Session, error) {
	ses, err := s.J.GetSession(ctx, id)
	return ses, mapErr(err)
}

func (s JournalStore) GetProject(ctx context.Context, id string) (run.Project, error) {
	p, err := s.J.GetProject(ctx, id)
	return p, mapErr(err)
}

func (s JournalStore) Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error) {
	evs, err := s.J.Events(ctx, runID, after, limit)
	return evs, mapErr(err)
}

func (s JournalStore) InterruptRun(ctx context.Context, runID, reason, detail string) (bool, error) {
	ok, err := s.J.InterruptRun(ctx, runID, reason, detail)
	return ok, mapErr(err)
}

// EndRun writes error (if reason is set) and done{st} as this process,
// which must hold the run's lock.
func (s JournalStore) EndRun(ctx context.Context, runID string, st run.Status, reason, detail string) (run.Event, error) {
	w, err := s.J.OpenWriter(ctx, runID)
	if err != nil {
		return run.Event{}, mapErr(err)
	}
	defer w.Close()
	if reason != "" {
		if _, err := w.AppendSync(ctx, run.EventError, run.ErrorInfo{Message: reason, Code: "start", Detail: detail}); err != nil {
			return run.Event{}, mapErr(err)
		}
	}
	ev, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: st, Error: reason})
	return ev, mapErr(err)
}

func (s JournalStore) Setting(ctx context.Context, key string) ([]byte, bool, error) {
	all, err := s.J.GetSettings(ctx)
	if err != nil {
		return nil, false, mapErr(err)
	}
	v, ok := all[key]
	return v, ok, nil
}
