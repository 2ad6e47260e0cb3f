package service_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/mock"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

var _ service.Store = (*mock.Journal)(nil)

// A client's session update never carries the agent's resume id to the
// journal: only the shim stores it (docs/ARCHITECTURE.md §Journal).
func TestUpdateSessionDropsTheResumeID(t *testing.T) {
	var got run.SessionUpdate
	j := &mock.Journal{UpdateSessionFunc: func(_ context.Context, id string, u run.SessionUpdate) (run.Session, error) {
		got = u
		return run.Session{ID: id}, nil
	}}
	s := service.NewCatalog(j, service.Options{})
	title, nid := " Notes ", "native-1"
	if _, err := s.UpdateSession(context.Background(), "ses_1", run.SessionUpdate{Title: &title, NativeSessionID: &nid}); err != nil {
		t.Fatal(err)
	}
	if got.NativeSessionID != nil {
		t.Errorf("the resume id reached the journal: %q", *got.NativeSessionID)
	}
	if got.Title == nil || *got.Title != "Notes" {
		t.Errorf("title = %v, want the trimmed one", got.Title)
	}
}

type guardFunc func() error

func (g guardFunc) Check() error { return g() }

// Deep health asks the guard first; when it refuses, the database is not
// touched (a write to read-only files could crash the process) and the
// reason is reported.
func TestHealthAsksTheGuardBeforeThePing(t *testing.T) {
	cases := []struct {
		name   string
		guard  error
		ping   error
		wantOK bool
	}{
		{"all well", nil, nil, true},
		{"guard refuses", errors.New("the data folder was deleted"), nil, false},
		{"ping fails", nil, errors.New("disk I/O error"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pinged := false
			j := &mock.Journal{
				PingFunc:     func(context.Context) error { pinged = true; return c.ping },
				ListRunsFunc: func(context.Context, run.RunFilter) ([]run.Run, error) { return nil, nil },
			}
			s := service.NewCatalog(j, service.Options{Log: slog.New(slog.DiscardHandler), Guard: guardFunc(func() error { return c.guard })})
			h := s.Health(context.Background())
			if h.OK != c.wantOK {
				t.Errorf("OK = %v, want %v (database %q)", h.OK, c.wantOK, h.Database)
			}
			if pinged != (c.guard == nil) {
				t.Errorf("pinged = %v with guard error %v", pinged, c.guard)
			}
		})
	}
}
