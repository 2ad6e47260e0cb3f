package stack

import (
	"context"
	"errors"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/schedule"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

var (
	_ schedule.Store        = (*journal.Store)(nil)
	_ service.ScheduleStore = (*journal.Store)(nil)
	_ schedule.Starter      = firer{}
	_ service.Scheduler     = (*schedule.Scheduler)(nil)
)

// firer is the scheduler's way into the service: a firing opens its
// session and starts its run exactly as a person would, so it is
// journaled, watched, notified and cancellable like any run
// (docs/ARCHITECTURE.md §Schedules). Errors carry the service's safe
// message, which the firing's history shows.
type firer struct {
	svc *service.Service
	j   *journal.Store
}

func safe(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return errors.New(service.MessageOf(err))
}

func (f firer) CreateSession(ctx context.Context, projectID, title, agent, model string) (string, error) {
	ses, err := f.svc.CreateSession(ctx, service.CreateSessionRequest{ProjectID: projectID, Title: title, Agent: agent, Model: model})
	return ses.ID, safe(err)
}

func (f firer) SessionExists(ctx context.Context, id string) (bool, error) {
	_, err := f.j.GetSession(ctx, id)
	if errors.Is(err, journal.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

func (f firer) StartRun(ctx context.Context, req run.StartRequest) (run.StartResult, error) {
	res, err := f.svc.StartRun(ctx, req)
	return res, safe(err)
}

func (f firer) RunActive(ctx context.Context, runID string) (bool, error) {
	r, err := f.j.GetRun(ctx, runID)
	if errors.Is(err, journal.ErrNotFound) {
		return false, nil
	}
	return err == nil && !r.Terminal, err
}
