package stack

import (
	"context"
	"encoding/json"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/datadir"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

type adapterConfig = adapter.Config

var (
	_ service.Store  = Journal{}
	_ service.Runner = (*supervisor.Supervisor)(nil)
	_ service.Agents = Agents{}
)

// Journal adapts a journal.Store to service.Store. Guard, when set, is
// asked first by Ping: deep health reports a deleted data folder, read-only
// database files or a full disk, which a read of the open database cannot
// see (and a write to read-only files could crash the process with SIGBUS
// inside SQLite's shared memory).
type Journal struct {
	J     *journal.Store
	Guard *datadir.Guard
}

func (j Journal) CreateProject(ctx context.Context, name, ws string) (run.Project, error) {
	return j.J.CreateProject(ctx, name, ws)
}
func (j Journal) Projects(ctx context.Context) ([]run.Project, error) { return j.J.ListProjects(ctx) }
func (j Journal) Project(ctx context.Context, id string) (run.Project, error) {
	return j.J.GetProject(ctx, id)
}
func (j Journal) CreateSession(ctx context.Context, s run.Session) (run.Session, error) {
	return j.J.CreateSession(ctx, s)
}
func (j Journal) Sessions(ctx context.Context, projectID string) ([]run.Session, error) {
	return j.J.ListSessions(ctx, projectID)
}
func (j Journal) Session(ctx context.Context, id string) (run.Session, error) {
	return j.J.GetSession(ctx, id)
}
func (j Journal) Messages(ctx context.Context, sessionID string) ([]run.Message, error) {
	return j.J.Messages(ctx, sessionID)
}
func (j Journal) UpdateSession(ctx context.Context, id string, p service.SessionPatch) (run.Session, error) {
	return j.J.UpdateSession(ctx, id, journal.SessionUpdate{Title: p.Title, Archived: p.Archived, Model: p.Model})
}
func (j Journal) DeleteSession(ctx context.Context, id string) error {
	return j.J.DeleteSession(ctx, id)
}
func (j Journal) Run(ctx context.Context, id string) (run.Run, error) { return j.J.GetRun(ctx, id) }
func (j Journal) Runs(ctx context.Context, f service.RunFilter) ([]run.Run, error) {
	return j.J.ListRuns(ctx, journal.RunFilter{Active: f.ActiveOnly, ProjectID: f.ProjectID, SessionID: f.SessionID, Limit: f.Limit})
}
func (j Journal) Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error) {
	return j.J.Events(ctx, runID, after, limit)
}
func (j Journal) Search(ctx context.Context, q string, limit int) ([]service.SearchHit, error) {
	hs, err := j.J.Search(ctx, q, limit)
	out := make([]service.SearchHit, len(hs))
	for i, h := range hs {
		out[i] = service.SearchHit(h)
	}
	return out, err
}
func (j Journal) Settings(ctx context.Context) (map[string]json.RawMessage, error) {
	return j.J.GetSettings(ctx)
}
func (j Journal) PutSettings(ctx context.Context, in map[string]json.RawMessage) error {
	for k, v := range in {
		if err := j.J.PutSetting(ctx, k, v); err != nil {
			return err
		}
	}
	return nil
}
func (j Journal) Audit(ctx context.Context) (any, error) { return j.J.Audit(ctx) }

// Ping reads the schema table: it touches the file, not just the pool.
func (j Journal) Ping(ctx context.Context) error {
	if err := j.Guard.Check(); err != nil {
		return err
	}
	var n int
	return j.J.DB().QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n)
}

// Agents adapts the adapter registry to service.Agents. Health comes from
// agents.Discover, the one discovery path: all agents at once, each bounded,
// with each agent's config resolved from the person's settings.
type Agents struct {
	Registry *adapter.Registry
	Setting  agents.SettingFunc
}

func (a Agents) Known(name string) bool {
	_, err := a.Registry.Get(name)
	return err == nil
}

func (a Agents) List(ctx context.Context) ([]service.AgentInfo, error) {
	sts := agents.Discover(ctx, a.Registry, agents.ResolveWith(a.Setting))
	out := make([]service.AgentInfo, 0, len(sts))
	for _, s := range sts {
		if s.Name == "" {
			continue // unregistered while listing
		}
		h := s.Health
		out = append(out, service.AgentInfo{Name: s.Name, DisplayName: s.DisplayName, Capabilities: s.Capabilities,
			Installed: h.Installed, OK: h.OK, Version: h.Version, Path: h.Path, Message: h.Message})
	}
	return out, nil
}

// Warm adapts the supervisor's warm agents to service.WarmSource.
type Warm struct{ S *supervisor.Supervisor }

func (w Warm) WarmAgents() []service.WarmAgent {
	var out []service.WarmAgent
	for _, a := range w.S.WarmAgents() {
		out = append(out, service.WarmAgent{SessionID: a.SessionID, Agent: a.Agent, Pid: a.Pid, AgentPid: a.AgentPid,
			Since: a.Since, IdleUntil: a.IdleUntil, RSSBytes: a.RSSBytes})
	}
	return out
}

var _ service.Porter = Journal{}

func (j Journal) ExportSession(ctx context.Context, sessionID, runID string) (bundle.Bundle, error) {
	return j.J.ExportSession(ctx, sessionID, runID)
}
func (j Journal) ImportSession(ctx context.Context, b bundle.Bundle, source string) (run.Session, error) {
	return j.J.ImportSession(ctx, b, source)
}
