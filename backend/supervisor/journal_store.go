package supervisor

import (
	"context"
	"slices"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// JournalStore adapts a journal.Store to Store.
type JournalStore struct{ J *journal.Store }

var _ Store = JournalStore{}

func (s JournalStore) Submit(ctx context.Context, req Submit) (Submission, error) {
	sub, err := s.J.Submit(ctx, journal.SubmitRequest{
		SessionID: req.SessionID, Message: req.Message, ClientRequestID: req.ClientRequestID,
		Agent: req.Agent, Model: req.Model, Attachments: req.Attachments,
	})
	return Submission{Turn: sub.Turn, Run: sub.Run, Existing: sub.Existing}, err
}

func (s JournalStore) GetRun(ctx context.Context, id string) (run.Run, error) {
	r, err := s.J.GetRun(ctx, id)
	return r, err
}

// activeLimit bounds one listing of active runs; far above any real count.
const activeLimit = 100000

func (s JournalStore) ActiveRuns(ctx context.Context) ([]run.Run, error) {
	rs, err := s.J.ListRuns(ctx, journal.RunFilter{Active: true, Limit: activeLimit})
	if err != nil {
		return nil, err
	}
	slices.Reverse(rs) // the journal lists newest first
	return rs, nil
}

func (s JournalStore) GetSession(ctx context.Context, id string) (run.Session, error) {
	ses, err := s.J.GetSession(ctx, id)
	return ses, err
}

func (s JournalStore) GetProject(ctx context.Context, id string) (run.Project, error) {
	p, err := s.J.GetProject(ctx, id)
	return p, err
}

func (s JournalStore) Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error) {
	evs, err := s.J.Events(ctx, runID, after, limit)
	return evs, err
}

func (s JournalStore) InterruptRun(ctx context.Context, runID, reason, detail string, announced int64) (bool, error) {
	ok, err := s.J.InterruptRunAfter(ctx, runID, reason, detail, announced)
	return ok, err
}

// EndRun writes error (if reason is set) and done{st} as this process,
// which must hold the run's lock.
func (s JournalStore) EndRun(ctx context.Context, runID string, st run.Status, reason, detail string) (run.Event, error) {
	w, err := s.J.OpenWriter(ctx, runID)
	if err != nil {
		return run.Event{}, err
	}
	defer w.Close()
	if reason != "" {
		if _, err := w.AppendSync(ctx, run.EventError, run.ErrorInfo{Message: reason, Code: "start", Detail: detail}); err != nil {
			return run.Event{}, err
		}
	}
	ev, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: st, Error: reason})
	return ev, err
}

func (s JournalStore) Setting(ctx context.Context, key string) ([]byte, bool, error) {
	all, err := s.J.GetSettings(ctx)
	if err != nil {
		return nil, false, err
	}
	v, ok := all[key]
	return v, ok, nil
}
