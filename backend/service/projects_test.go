package service_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

// retireRecorder is the in-memory runner that also records which sessions'
// warm agents were retired.
type retireRecorder struct {
	*servicetest.Mem
	mu      sync.Mutex
	retired []string
}

func (r *retireRecorder) RetireWarmSession(_ context.Context, sessionID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.retired = append(r.retired, sessionID)
	return true
}

func (r *retireRecorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.retired)
}

func projectWorld(t *testing.T) (*service.Service, *retireRecorder, run.Project, run.Session, string) {
	t.Helper()
	m := servicetest.NewMem()
	rr := &retireRecorder{Mem: m}
	s := service.New(m, rr, m, service.Options{Log: quiet})
	ws := filepath.Join(t.TempDir(), "proj")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := s.CreateProject(ctx, service.CreateProjectRequest{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	ses, err := s.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	return s, rr, p, ses, ws
}

func TestRenameProject(t *testing.T) {
	s, _, p, _, _ := projectWorld(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	next(t, ch) // snapshot
	str := func(v string) *string { return &v }
	for _, c := range []struct {
		name string
		id   string
		in   *string
		want string // the name after, or the error code
	}{
		{"renamed, trimmed", p.ID, str("  Website  "), "Website"},
		{"no name given keeps it", p.ID, nil, "Website"},
		{"blank", p.ID, str("  "), string(service.CodeBadRequest)},
		{"two lines", p.ID, str("a\nb"), string(service.CodeBadRequest)},
		{"unknown project", "prj_nope", str("x"), string(service.CodeNotFound)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.UpdateProject(ctx, c.id, service.ProjectPatch{Name: c.in})
			var se *service.Error
			switch {
			case errors.As(err, &se):
				if string(se.Code) != c.want {
					t.Fatalf("error %v, want %s", err, c.want)
				}
			case err != nil || got.Name != c.want:
				t.Fatalf("UpdateProject = %+v, %v; want name %q", got, err, c.want)
			}
		})
	}
	m := next(t, ch)
	if m.Type != run.WatchSessionChanged || m.Session.Kind != run.ProjectChanged || m.Session.ProjectID != p.ID {
		t.Fatalf("watch message after rename = %+v", m)
	}
}

// Removing a project needs its runs stopped, takes its sessions, retires
// their warm agents, leaves the folder and tells watchers.
func TestDeleteProject(t *testing.T) {
	s, rr, p, ses, ws := projectWorld(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi", ClientRequestID: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	var se *service.Error
	if err := s.DeleteProject(ctx, p.ID); !errors.As(err, &se) || se.Code != service.CodeConflict {
		t.Fatalf("delete with a running agent: %v", err)
	}
	rr.Append(res.RunID, run.EventDone, run.Done{Status: run.StatusCompleted})

	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	next(t, ch)
	if err = s.DeleteProject(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	for {
		m := next(t, ch)
		if m.Type == run.WatchSessionChanged && m.Session.Kind == run.ProjectChanged {
			if m.Session.ProjectID != p.ID {
				t.Fatalf("project.changed for %q", m.Session.ProjectID)
			}
			break
		}
	}
	if ps, _ := s.Projects(ctx); len(ps) != 0 {
		t.Fatalf("projects after delete: %+v", ps)
	}
	if ss, _ := s.Sessions(ctx, p.ID); len(ss) != 0 {
		t.Fatalf("sessions after delete: %+v", ss)
	}
	if got := rr.got(); !slices.Equal(got, []string{ses.ID}) {
		t.Fatalf("retired %v, want the session's warm agent", got)
	}
	if st, err := os.Stat(ws); err != nil || !st.IsDir() {
		t.Fatalf("the folder was touched: %v", err)
	}
	if err := s.DeleteProject(ctx, p.ID); !errors.As(err, &se) || se.Code != service.CodeNotFound {
		t.Fatalf("second delete: %v", err)
	}
}

// A project whose folder was deleted is flagged, and its sessions' warm
// agents are retired once, not on every listing.
func TestMissingFolderFlaggedAndRetiredOnce(t *testing.T) {
	s, rr, p, ses, ws := projectWorld(t)
	ctx := context.Background()
	ps, err := s.Projects(ctx)
	if err != nil || len(ps) != 1 || ps[0].FolderMissing {
		t.Fatalf("before: %+v, %v", ps, err)
	}
	if err := os.Remove(ws); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		ps, _ = s.Projects(ctx)
		if !ps[0].FolderMissing {
			t.Fatalf("not flagged: %+v", ps)
		}
	}
	if got := rr.got(); !slices.Equal(got, []string{ses.ID}) {
		t.Fatalf("retired %v, want %s once", got, ses.ID)
	}
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Project(ctx, p.ID); got.FolderMissing {
		t.Fatal("still flagged after the folder came back")
	}
}

// A project whose folder was moved away refuses a run before anything is
// sent, with a plain error of its own class (issue 23.12: "Any command"
// failed with "agent not installed … no such file or directory"); locating
// the folder makes runs work again.
func TestMissingFolderRefusesRunsUntilLocated(t *testing.T) {
	s, rr, p, ses, ws := projectWorld(t)
	ctx := context.Background()
	first, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	moved := ws + "-moved"
	if err := os.Rename(ws, moved); err != nil {
		t.Fatal(err)
	}
	before := countRuns(t, rr.Mem)
	_, err = s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "again"})
	if !errors.Is(err, service.ErrFolderMissing) || service.CodeOf(err) != service.CodeFolderMissing {
		t.Fatalf("start in a missing folder: %v (code %s), want folder_missing", err, service.CodeOf(err))
	}
	if msg := service.MessageOf(err); msg == "" || !strings.Contains(msg, "missing") || !strings.Contains(msg, p.Name) {
		t.Fatalf("message %q should say the project's folder is missing", msg)
	}
	if _, err := s.Queue(ctx, first.RunID, service.QueueRequest{Message: "and then"}); !errors.Is(err, service.ErrFolderMissing) {
		t.Fatalf("queue in a missing folder: %v, want folder_missing", err)
	}
	if after := countRuns(t, rr.Mem); after != before {
		t.Fatalf("%d runs created in a missing folder", after-before)
	}

	if _, err := s.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"}); !errors.Is(err, service.ErrFolderMissing) {
		t.Fatalf("new session in a missing folder: %v, want folder_missing", err)
	}

	// Locate…: the project follows its folder; runs start again.
	got, err := s.UpdateProject(ctx, p.ID, service.ProjectPatch{Workspace: &moved})
	if err != nil || got.Workspace != moved || got.FolderMissing {
		t.Fatalf("locate: %+v %v", got, err)
	}
	if _, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "again"}); err != nil {
		t.Fatalf("start after locating the folder: %v", err)
	}
	// A folder that is another project's, or none, is refused.
	other := t.TempDir()
	if _, err := s.CreateProject(ctx, service.CreateProjectRequest{Workspace: other}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateProject(ctx, p.ID, service.ProjectPatch{Workspace: &other}); service.CodeOf(err) != service.CodeConflict {
		t.Fatalf("locate onto another project's folder: %v, want conflict", err)
	}
	gone := filepath.Join(other, "nope")
	if _, err := s.UpdateProject(ctx, p.ID, service.ProjectPatch{Workspace: &gone}); service.CodeOf(err) != service.CodeBadRequest {
		t.Fatalf("locate onto no folder: %v, want bad request", err)
	}
}

func countRuns(t *testing.T, m *servicetest.Mem) int {
	t.Helper()
	rs, err := m.ListRuns(context.Background(), run.RunFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return len(rs)
}
