// Package mock holds the function-field fake of the journal's contract
// (docs/ARCHITECTURE.md §Journal), for tests only: set the fields a test
// expects to be called; calling one left nil panics with the method's name,
// so an unexpected call fails loudly. It satisfies every consumer's small
// journal interface (shim.Journal, supervisor.Store, service.Store), as
// backend/journal's Store does; each consumer's tests assert that.
package mock

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Journal fakes backend/journal's Store.
type Journal struct {
	// Runs and their events.
	GetRunFunc            func(ctx context.Context, runID string) (run.Run, error)
	ListRunsFunc          func(ctx context.Context, f run.RunFilter) ([]run.Run, error)
	ActiveRunsFunc        func(ctx context.Context) ([]run.Run, error)
	EventsFunc            func(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error)
	SubmitFunc            func(ctx context.Context, req run.SubmitRequest) (run.Submission, error)
	OpenWriterFunc        func(ctx context.Context, runID string) (run.Writer, error)
	InterruptRunAfterFunc func(ctx context.Context, runID, reason, detail string, announced int64) (bool, error)
	EndRunFunc            func(ctx context.Context, runID string, st run.Status, reason, detail string) (run.Event, error)

	// Projects and sessions.
	CreateProjectFunc func(ctx context.Context, name, workspace string) (run.Project, error)
	ListProjectsFunc  func(ctx context.Context) ([]run.Project, error)
	GetProjectFunc    func(ctx context.Context, id string) (run.Project, error)
	RenameProjectFunc func(ctx context.Context, id, name string) (run.Project, error)
	MoveProjectFunc   func(ctx context.Context, id, workspace string) (run.Project, error)
	DeleteProjectFunc func(ctx context.Context, id string) error
	CreateSessionFunc func(ctx context.Context, s run.Session) (run.Session, error)
	ListSessionsFunc  func(ctx context.Context, projectID string) ([]run.Session, error)
	GetSessionFunc    func(ctx context.Context, id string) (run.Session, error)
	MessagesFunc      func(ctx context.Context, sessionID string) ([]run.Message, error)
	UpdateSessionFunc func(ctx context.Context, id string, u run.SessionUpdate) (run.Session, error)
	DeleteSessionFunc func(ctx context.Context, id string) error

	// Settings, search and upkeep.
	SettingFunc     func(ctx context.Context, key string) ([]byte, bool, error)
	GetSettingsFunc func(ctx context.Context) (map[string]json.RawMessage, error)
	PutSettingsFunc func(ctx context.Context, s map[string]json.RawMessage) error
	SearchFunc      func(ctx context.Context, q string, limit int) ([]run.SearchHit, error)
	AuditFunc       func(ctx context.Context) (run.Audit, error)
	PingFunc        func(ctx context.Context) error
	CheckpointFunc  func(ctx context.Context) error
	CloseFunc       func() error
}

func (j *Journal) GetRun(ctx context.Context, runID string) (run.Run, error) {
	return must(j.GetRunFunc, "GetRun")(ctx, runID)
}

func (j *Journal) ListRuns(ctx context.Context, f run.RunFilter) ([]run.Run, error) {
	return must(j.ListRunsFunc, "ListRuns")(ctx, f)
}

func (j *Journal) ActiveRuns(ctx context.Context) ([]run.Run, error) {
	return must(j.ActiveRunsFunc, "ActiveRuns")(ctx)
}

func (j *Journal) Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error) {
	return must(j.EventsFunc, "Events")(ctx, runID, after, limit)
}

func (j *Journal) Submit(ctx context.Context, req run.SubmitRequest) (run.Submission, error) {
	return must(j.SubmitFunc, "Submit")(ctx, req)
}

func (j *Journal) OpenWriter(ctx context.Context, runID string) (run.Writer, error) {
	return must(j.OpenWriterFunc, "OpenWriter")(ctx, runID)
}

func (j *Journal) InterruptRunAfter(ctx context.Context, runID, reason, detail string, announced int64) (bool, error) {
	return must(j.InterruptRunAfterFunc, "InterruptRunAfter")(ctx, runID, reason, detail, announced)
}

func (j *Journal) EndRun(ctx context.Context, runID string, st run.Status, reason, detail string) (run.Event, error) {
	return must(j.EndRunFunc, "EndRun")(ctx, runID, st, reason, detail)
}

func (j *Journal) CreateProject(ctx context.Context, name, workspace string) (run.Project, error) {
	return must(j.CreateProjectFunc, "CreateProject")(ctx, name, workspace)
}

func (j *Journal) ListProjects(ctx context.Context) ([]run.Project, error) {
	return must(j.ListProjectsFunc, "ListProjects")(ctx)
}

func (j *Journal) GetProject(ctx context.Context, id string) (run.Project, error) {
	return must(j.GetProjectFunc, "GetProject")(ctx, id)
}

func (j *Journal) CreateSession(ctx context.Context, s run.Session) (run.Session, error) {
	return must(j.CreateSessionFunc, "CreateSession")(ctx, s)
}

func (j *Journal) ListSessions(ctx context.Context, projectID string) ([]run.Session, error) {
	return must(j.ListSessionsFunc, "ListSessions")(ctx, projectID)
}

func (j *Journal) GetSession(ctx context.Context, id string) (run.Session, error) {
	return must(j.GetSessionFunc, "GetSession")(ctx, id)
}

func (j *Journal) Messages(ctx context.Context, sessionID string) ([]run.Message, error) {
	return must(j.MessagesFunc, "Messages")(ctx, sessionID)
}

func (j *Journal) UpdateSession(ctx context.Context, id string, u run.SessionUpdate) (run.Session, error) {
	return must(j.UpdateSessionFunc, "UpdateSession")(ctx, id, u)
}

func (j *Journal) RenameProject(ctx context.Context, id, name string) (run.Project, error) {
	return must(j.RenameProjectFunc, "RenameProject")(ctx, id, name)
}

func (j *Journal) MoveProject(ctx context.Context, id, workspace string) (run.Project, error) {
	return must(j.MoveProjectFunc, "MoveProject")(ctx, id, workspace)
}
func (j *Journal) DeleteProject(ctx context.Context, id string) error {
	return must(j.DeleteProjectFunc, "DeleteProject")(ctx, id)
}
func (j *Journal) DeleteSession(ctx context.Context, id string) error {
	return must(j.DeleteSessionFunc, "DeleteSession")(ctx, id)
}

func (j *Journal) Setting(ctx context.Context, key string) ([]byte, bool, error) {
	return must(j.SettingFunc, "Setting")(ctx, key)
}

func (j *Journal) GetSettings(ctx context.Context) (map[string]json.RawMessage, error) {
	return must(j.GetSettingsFunc, "GetSettings")(ctx)
}

func (j *Journal) PutSettings(ctx context.Context, s map[string]json.RawMessage) error {
	return must(j.PutSettingsFunc, "PutSettings")(ctx, s)
}

func (j *Journal) Search(ctx context.Context, q string, limit int) ([]run.SearchHit, error) {
	return must(j.SearchFunc, "Search")(ctx, q, limit)
}

func (j *Journal) Audit(ctx context.Context) (run.Audit, error) {
	return must(j.AuditFunc, "Audit")(ctx)
}
func (j *Journal) Ping(ctx context.Context) error { return must(j.PingFunc, "Ping")(ctx) }
func (j *Journal) Checkpoint(ctx context.Context) error {
	return must(j.CheckpointFunc, "Checkpoint")(ctx)
}
func (j *Journal) Close() error { return must(j.CloseFunc, "Close")() }

// Writer fakes the run.Writer the journal hands out.
type Writer struct {
	AppendFunc     func(t run.EventType, payload any) (run.Event, error)
	AppendSyncFunc func(ctx context.Context, t run.EventType, payload any) (run.Event, error)
	FlushFunc      func(ctx context.Context) error
	CloseFunc      func() error
}

var _ run.Writer = (*Writer)(nil)

func (w *Writer) Append(t run.EventType, payload any) (run.Event, error) {
	return must(w.AppendFunc, "Writer.Append")(t, payload)
}

func (w *Writer) AppendSync(ctx context.Context, t run.EventType, payload any) (run.Event, error) {
	return must(w.AppendSyncFunc, "Writer.AppendSync")(ctx, t, payload)
}

func (w *Writer) Flush(ctx context.Context) error { return must(w.FlushFunc, "Writer.Flush")(ctx) }
func (w *Writer) Close() error                    { return must(w.CloseFunc, "Writer.Close")() }

// must returns f, or panics naming the method a test did not expect.
func must[F any](f F, method string) F {
	if reflect.ValueOf(f).IsNil() {
		panic("mock: unexpected call to " + method)
	}
	return f
}
