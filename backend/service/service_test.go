package service_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

func newSvc(t *testing.T) (*service.Service, *servicetest.Mem) {
	t.Helper()
	m := servicetest.NewMem()
	return service.New(m, m, m, service.Options{Log: quiet}), m
}

func TestCreateProjectValidation(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, ws string
		code     service.Code
	}{
		{"empty", "", service.CodeBadRequest},
		{"relative", "some/dir", service.CodeBadRequest},
		{"missing", filepath.Join(dir, "nope"), service.CodeBadRequest},
		{"file", file, service.CodeBadRequest},
		{"ok", dir, ""},
		{"ok unclean", dir + "/./", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newSvc(t)
			p, err := s.CreateProject(context.Background(), service.CreateProjectRequest{Workspace: tt.ws})
			if tt.code != "" {
				if got := service.CodeOf(err); got != tt.code {
					t.Fatalf("code = %q (%v), want %q", got, err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Workspace != dir || p.Name != filepath.Base(dir) {
				t.Fatalf("project = %+v", p)
			}
		})
	}
}

func TestCreateProjectReusesFolder(t *testing.T) {
	s, _ := newSvc(t)
	dir := t.TempDir()
	ctx := context.Background()
	a, err := s.CreateProject(ctx, service.CreateProjectRequest{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.CreateProject(ctx, service.CreateProjectRequest{Workspace: dir + "/", Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != b.ID {
		t.Fatalf("second create made %s, want reuse of %s", b.ID, a.ID)
	}
}

func setup(t *testing.T) (*service.Service, *servicetest.Mem, run.Session) {
	t.Helper()
	s, m := newSvc(t)
	ctx := context.Background()
	p, err := s.CreateProject(ctx, service.CreateProjectRequest{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ses, err := s.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	return s, m, ses
}

func TestCreateSessionValidation(t *testing.T) {
	s, _, ses := setup(t)
	tests := []struct {
		name string
		req  service.CreateSessionRequest
		code service.Code
	}{
		{"no project", service.CreateSessionRequest{Agent: "demo"}, service.CodeBadRequest},
		{"no agent", service.CreateSessionRequest{ProjectID: ses.ProjectID}, service.CodeBadRequest},
		{"unknown agent", service.CreateSessionRequest{ProjectID: ses.ProjectID, Agent: "nope"}, service.CodeBadRequest},
		{"unknown project", service.CreateSessionRequest{ProjectID: "prj_x", Agent: "demo"}, service.CodeNotFound},
		{"long title", service.CreateSessionRequest{ProjectID: ses.ProjectID, Agent: "demo", Title: strings.Repeat("t", 600)}, service.CodeBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.CreateSession(context.Background(), tt.req)
			if got := service.CodeOf(err); got != tt.code {
				t.Fatalf("code = %q (%v), want %q", got, err, tt.code)
			}
		})
	}
}

func TestStartRunValidationAndIdempotency(t *testing.T) {
	s, _, ses := setup(t)
	ctx := context.Background()
	tests := []struct {
		name string
		req  run.StartRequest
		code service.Code
	}{
		{"empty message", run.StartRequest{SessionID: ses.ID, Message: "  \n"}, service.CodeBadRequest},
		{"too long", run.StartRequest{SessionID: ses.ID, Message: strings.Repeat("x", service.MaxMessageBytes+1)}, service.CodeTooLarge},
		{"bad utf8", run.StartRequest{SessionID: ses.ID, Message: "a\xffb"}, service.CodeBadRequest},
		{"no session", run.StartRequest{Message: "hi"}, service.CodeBadRequest},
		{"unknown session", run.StartRequest{SessionID: "ses_nope", Message: "hi"}, service.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.StartRun(ctx, tt.req)
			if got := service.CodeOf(err); got != tt.code {
				t.Fatalf("code = %q (%v), want %q", got, err, tt.code)
			}
		})
	}
	a, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi", ClientRequestID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi", ClientRequestID: "r1"})
	if err != nil || a != b {
		t.Fatalf("repeat = %+v, %v; want %+v", b, err, a)
	}
	_, err = s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "other", ClientRequestID: "r1"})
	if service.CodeOf(err) != service.CodeConflict {
		t.Fatalf("different body: %v, want conflict", err)
	}
}

func TestControlsOnUnknownRunAreNotFound(t *testing.T) {
	s, _ := newSvc(t)
	ctx := context.Background()
	calls := map[string]func() error{
		"cancel":  func() error { _, err := s.Cancel(ctx, "run_x"); return err },
		"approve": func() error { _, err := s.Approve(ctx, "run_x", "a1", "allow"); return err },
		"clarify": func() error { _, err := s.Clarify(ctx, "run_x", "c1", "yes"); return err },
		"queue":   func() error { _, err := s.Queue(ctx, "run_x", service.QueueRequest{Message: "m"}); return err },
		"model":   func() error { _, err := s.SetModel(ctx, "run_x", "m"); return err },
		"events":  func() error { _, err := s.Events(ctx, "run_x", 0, 10); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			if !errors.Is(err, service.ErrNotFound) || service.MessageOf(err) != "run not found" {
				t.Fatalf("err = %v (%q), want run not found", err, service.MessageOf(err))
			}
		})
	}
}

func TestControlPassesResultThrough(t *testing.T) {
	s, m, ses := setup(t)
	ctx := context.Background()
	res, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	var gotRun, gotID, gotChoice string
	m.ApproveFn = func(_ context.Context, runID, id, choice string) (run.ControlResult, error) {
		gotRun, gotID, gotChoice = runID, id, choice
		return run.ControlResult{Accepted: true, Status: run.ControlAccepted, EventID: runID + ":9"}, nil
	}
	cr, err := s.Approve(ctx, res.RunID, "ap1", "allow_once")
	if err != nil || !cr.Accepted || gotRun != res.RunID || gotID != "ap1" || gotChoice != "allow_once" {
		t.Fatalf("approve = %+v, %v (got %s %s %s)", cr, err, gotRun, gotID, gotChoice)
	}
	if _, err := s.Approve(ctx, res.RunID, "ap1", ""); service.CodeOf(err) != service.CodeBadRequest {
		t.Fatalf("empty choice: %v", err)
	}
}

func TestDeleteSessionWithActiveRunConflicts(t *testing.T) {
	s, m, ses := setup(t)
	ctx := context.Background()
	res, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, ses.ID); service.CodeOf(err) != service.CodeConflict {
		t.Fatalf("delete with active run: %v", err)
	}
	m.Append(res.RunID, run.EventDone, run.Done{Status: run.StatusCompleted})
	if err := s.DeleteSession(ctx, ses.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, ses.ID); service.CodeOf(err) != service.CodeNotFound {
		t.Fatalf("after delete: %v", err)
	}
}

func TestClassifyHidesDetail(t *testing.T) {
	m := servicetest.NewMem()
	secret := errors.New("open /home/alice/.local/share/x.db: disk I/O error")
	m.PingFn = func(context.Context) error { return secret }
	s := service.New(m, m, m, service.Options{Log: quiet})
	h := s.Health(context.Background())
	if h.OK || strings.Contains(h.Database, "alice") || h.Database == "ok" {
		t.Fatalf("health = %+v", h)
	}
	mapped := fmt.Errorf("dep: append: %w", errdefs.ErrDiskFull)
	m.PingFn = func(context.Context) error { return mapped }
	s = service.New(m, m, m, service.Options{Log: quiet})
	if h := s.Health(context.Background()); h.Database != "the disk is full" {
		t.Fatalf("mapped health = %+v", h)
	}
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))
