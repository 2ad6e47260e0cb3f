// Package servicetest is an in-memory journal + supervisor + agent list
// for testing the service and its transports without SQLite or processes.
// Controls, and anything a test wants to break, are function fields.
package servicetest

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/agents/agentdef"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

var (
	_ service.Store  = (*Mem)(nil)
	_ service.Runner = (*Mem)(nil)
	_ service.Agents = (*Mem)(nil)
)

// Mem is a fake world. Zero function fields mean "behave plainly".
type Mem struct {
	CancelFn    func(ctx context.Context, runID string) (run.ControlResult, error)
	ApproveFn   func(ctx context.Context, runID, approvalID, choice string) (run.ControlResult, error)
	ClarifyFn   func(ctx context.Context, runID, clarifyID, answer string) (run.ControlResult, error)
	QueueFn     func(ctx context.Context, runID, message, clientRequestID string) (run.ControlResult, error)
	SetModelFn  func(ctx context.Context, runID, model string) (run.ControlResult, error)
	SetConfigFn func(ctx context.Context, runID, id, value string) (run.ControlResult, error)
	PingFn      func(ctx context.Context) error
	// ResumeFn answers Resume (a parked run started now).
	ResumeFn func(ctx context.Context, runID string) (run.ControlResult, error)
	// WatchBuffer is each watcher's channel capacity (default 64); a
	// watcher whose channel is full is dropped (closed), like the real
	// fan-out does.
	WatchBuffer int

	tapMu    sync.Mutex // orders appends with their tap calls
	tap      func(run.Event)
	mu       sync.Mutex
	n        int
	projects []run.Project
	sessions map[string]*run.Session
	messages map[string][]run.Message
	runs     map[string]*run.Run
	events   map[string][]run.Event
	watchers map[string]map[*watcher]struct{}
	requests map[string]string // client_request_id → run id
	settings map[string]json.RawMessage
	// AgentNames are the known agents (default: "demo").
	AgentNames []string
	// Checks counts health checks (List calls: each would run every
	// agent's --version); read it with HealthChecks.
	Checks int
}

type watcher struct {
	ch     chan run.Event
	closed bool
}

// NewMem returns an empty world knowing the "demo" agent.
func NewMem() *Mem {
	return &Mem{
		sessions: map[string]*run.Session{}, messages: map[string][]run.Message{},
		runs: map[string]*run.Run{}, events: map[string][]run.Event{},
		watchers: map[string]map[*watcher]struct{}{}, requests: map[string]string{},
		settings: map[string]json.RawMessage{}, AgentNames: []string{"demo"},
	}
}

func (m *Mem) id(prefix string) string {
	m.n++
	return fmt.Sprintf("%s_%d", prefix, m.n)
}

func notFound(what, id string) error {
	return fmt.Errorf("%s %q: %w", what, id, service.ErrDepNotFound)
}

// --- Store ---

func (m *Mem) CreateProject(_ context.Context, name, ws string) (run.Project, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := run.Project{ID: m.id("prj"), Name: name, Workspace: ws, CreatedAt: time.Now().UTC()}
	m.projects = append(m.projects, p)
	return p, nil
}

func (m *Mem) ListProjects(context.Context) ([]run.Project, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]run.Project(nil), m.projects...), nil
}

func (m *Mem) GetProject(_ context.Context, id string) (run.Project, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.projects {
		if p.ID == id {
			return p, nil
		}
	}
	return run.Project{}, notFound("project", id)
}

func (m *Mem) RenameProject(_ context.Context, id, name string) (run.Project, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.projects {
		if m.projects[i].ID == id {
			m.projects[i].Name = name
			return m.projects[i], nil
		}
	}
	return run.Project{}, notFound("project", id)
}

func (m *Mem) MoveProject(_ context.Context, id, workspace string) (run.Project, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.projects {
		if m.projects[i].ID == id {
			m.projects[i].Workspace = workspace
			return m.projects[i], nil
		}
	}
	return run.Project{}, notFound("project", id)
}

func (m *Mem) DeleteProject(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, p := range m.projects {
		if p.ID == id {
			m.projects = append(m.projects[:i], m.projects[i+1:]...)
			for sid, s := range m.sessions {
				if s.ProjectID == id {
					delete(m.sessions, sid)
				}
			}
			return nil
		}
	}
	return notFound("project", id)
}

func (m *Mem) CreateSession(_ context.Context, s run.Session) (run.Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s.ID = m.id("ses")
	s.CreatedAt = time.Now().UTC()
	s.UpdatedAt = s.CreatedAt
	m.sessions[s.ID] = &s
	return s, nil
}

func (m *Mem) ListSessions(_ context.Context, projectID string) ([]run.Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []run.Session
	for _, s := range m.sessions {
		if projectID == "" || s.ProjectID == projectID {
			out = append(out, *s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	return out, nil
}

func (m *Mem) GetSession(_ context.Context, id string) (run.Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok {
		return run.Session{}, notFound("session", id)
	}
	return *s, nil
}

func (m *Mem) Messages(_ context.Context, sessionID string) ([]run.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]run.Message(nil), m.messages[sessionID]...), nil
}

func (m *Mem) UpdateSession(_ context.Context, id string, p run.SessionUpdate) (run.Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok {
		return run.Session{}, notFound("session", id)
	}
	if p.Title != nil {
		s.Title = *p.Title
	}
	if p.Archived != nil {
		s.Archived = *p.Archived
	}
	if p.Model != nil {
		s.Model = *p.Model
	}
	if len(p.Config) > 0 { // merged as the journal does; "" forgets
		merged := map[string]string{}
		for k, v := range s.Config {
			merged[k] = v
		}
		for k, v := range p.Config {
			if v == "" {
				delete(merged, k)
			} else {
				merged[k] = v
			}
		}
		s.Config = merged // a new map: earlier copies stay as they were
	}
	return *s, nil
}

func (m *Mem) DeleteSession(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.sessions[id]; !ok {
		return notFound("session", id)
	}
	delete(m.sessions, id)
	return nil
}

func (m *Mem) GetRun(_ context.Context, id string) (run.Run, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.runs[id]
	if !ok {
		return run.Run{}, notFound("run", id)
	}
	return *r, nil
}

func (m *Mem) ListRuns(_ context.Context, f run.RunFilter) ([]run.Run, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []run.Run
	for _, r := range m.runs {
		if (f.Active && r.Terminal) || (f.SessionID != "" && r.SessionID != f.SessionID) ||
			(f.ProjectID != "" && r.ProjectID != f.ProjectID) {
			continue
		}
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (m *Mem) Events(_ context.Context, runID string, after int64, limit int) ([]run.Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.runs[runID]; !ok {
		return nil, notFound("run", runID)
	}
	evs := m.events[runID]
	if after < 0 || after > int64(len(evs)) {
		after = min(max(after, 0), int64(len(evs)))
	}
	rest := evs[after:]
	if len(rest) > limit {
		rest = rest[:limit]
	}
	return append([]run.Event(nil), rest...), nil
}

func (m *Mem) Search(context.Context, string, int) ([]run.SearchHit, error) { return nil, nil }

func (m *Mem) GetSettings(context.Context) (map[string]json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]json.RawMessage{}
	for k, v := range m.settings {
		out[k] = v
	}
	return out, nil
}

func (m *Mem) PutSettings(_ context.Context, in map[string]json.RawMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, v := range in {
		m.settings[k] = v
	}
	return nil
}

func (m *Mem) Audit(context.Context) (run.Audit, error) { return run.Audit{}, nil }

func (m *Mem) Ping(ctx context.Context) error {
	if m.PingFn != nil {
		return m.PingFn(ctx)
	}
	return nil
}

// --- Agents ---

func (m *Mem) List(context.Context) ([]service.AgentInfo, error) {
	m.mu.Lock()
	m.Checks++
	m.mu.Unlock()
	var out []service.AgentInfo
	for _, n := range m.AgentNames {
		out = append(out, service.AgentInfo{Name: n, DisplayName: n, Installed: true, OK: true})
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, d := range agentdef.Added(m.settings) {
		out = append(out, service.AgentInfo{Name: d.ID, DisplayName: d.Name, Installed: true, OK: true, Added: true})
	}
	return out, nil
}

func (m *Mem) Known(name string) bool {
	if m.BuiltIn(name) {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, d := range agentdef.Added(m.settings) {
		if d.ID == name {
			return true
		}
	}
	return false
}

// BuiltIn: AgentNames are the built-in agents.
func (m *Mem) BuiltIn(name string) bool {
	for _, n := range m.AgentNames {
		if n == name {
			return true
		}
	}
	return false
}

// DisplayNames: the built-in agents by their ids, the added by their names.
func (m *Mem) DisplayNames(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	for _, n := range m.AgentNames {
		out[n] = n
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, d := range agentdef.Added(m.settings) {
		out[d.ID] = d.Name
	}
	return out, nil
}

// DisplayName is an added agent's name, else the id.
func (m *Mem) DisplayName(_ context.Context, name string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, d := range agentdef.Added(m.settings) {
		if d.ID == name {
			return d.Name
		}
	}
	return name
}

// HealthChecks is how many times agent health was checked.
func (m *Mem) HealthChecks() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.Checks
}
