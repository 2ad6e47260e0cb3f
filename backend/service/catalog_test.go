package service_test

import (
	"context"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/mock"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// A catalog service (the command line on the journal alone, no core)
// reads events from the journal and refuses what needs a run engine in
// plain words, rather than reaching a runner that is not there.
func TestCatalogServiceReadsTheJournalAndRefusesRuns(t *testing.T) {
	ctx := context.Background()
	stored := []run.Event{{RunID: "run_1", Seq: 1, Type: run.EventTokenDelta}}
	j := &mock.Journal{
		GetRunFunc: func(_ context.Context, id string) (run.Run, error) {
			return run.Run{ID: id, LastSeq: 1}, nil
		},
		EventsFunc: func(_ context.Context, _ string, after int64, _ int) ([]run.Event, error) {
			if after >= 1 {
				return nil, nil
			}
			return stored, nil
		},
	}
	s := service.NewCatalog(j, service.Options{})
	page, err := s.Events(ctx, "run_1", 0, 10)
	if err != nil || len(page.Events) != 1 || page.LastSeq != 1 {
		t.Fatalf("Events = %+v, %v; want the journal's one event", page, err)
	}
	if l, err := s.RunLog(ctx, "run_1"); err != nil || l.Log != "" {
		t.Errorf("RunLog = %+v, %v; want an empty log", l, err)
	}
	refused := map[string]func() error{
		"cancel":       func() error { _, err := s.Cancel(ctx, "run_1"); return err },
		"force cancel": func() error { _, err := s.ForceCancel(ctx, "run_1"); return err },
		"approve":      func() error { _, err := s.Approve(ctx, "run_1", "a1", "allow"); return err },
		"follow": func() error {
			return s.Follow(ctx, "run_1", 1, func(run.Event, bool) error { return nil })
		},
	}
	for name, f := range refused {
		err := f()
		if service.CodeOf(err) != service.CodeUnavailable {
			t.Errorf("%s: %v (code %s); want unavailable", name, err, service.CodeOf(err))
			continue
		}
		if msg := service.MessageOf(err); msg != "runs need Hermes Desk running: start the app or `hermesdesk serve`" {
			t.Errorf("%s: message %q", name, msg)
		}
	}
}
