package service

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Limits on what a caller may send. Attachments travel by path, so a
// message is text a person typed or pasted.
const (
	MaxMessageBytes = 256 << 10
	MaxTitleBytes   = 512
	MaxNameBytes    = 256
	DefaultPage     = 500
	MaxPage         = 5000
)

// Options tune a Service. The zero value is sensible.
type Options struct {
	Log *slog.Logger
	// Follow tunes event streams (see FollowOptions).
	Follow FollowOptions
	// Warm, when set, adds warm agents and their memory to deep health.
	Warm WarmSource
	// Guard, when set, is asked before the database is pinged (deep health).
	Guard Guard
	// WatchBuffer is how many watch bus messages may wait for one watcher
	// before it is said goodbye to (default DefaultWatchBuffer).
	WatchBuffer int
	// Uploads is the folder POST /api/uploads stores files in (the data
	// dir's uploads/); empty refuses uploads.
	Uploads string
	// UploadsQuota bounds the bytes the uploads folder holds (default
	// DefaultUploadsQuota); UploadsKeep is how long an upload no message
	// uses is kept (default DefaultUploadsKeep).
	UploadsQuota int64
	UploadsKeep  time.Duration
}

// Service is the API. It is safe for concurrent use.
type Service struct {
	store   Store
	runner  Runner
	agents  Agents
	log     *slog.Logger
	follow  FollowOptions
	started time.Time
	bus     *bus
	health  *healthCache
	// agentDefsMu makes an agent's check and its save one step (agentdefs.go).
	agentDefsMu sync.Mutex
	models      modelsCache // the agents' model lists (models.go)

	// Schedules (SetSchedules): nil until the stack connects them.
	schedStore ScheduleStore
	sched      Scheduler

	// Checkpoints (SetCheckpoints): nil until the stack connects them.
	checkpoints    CheckpointStore
	checkpointsDir string
	// checkpointMu: one undo or restore at a time (each compares the
	// files with what it kept, then writes them).
	checkpointMu sync.Mutex

	warm  WarmSource // deep health's warm agents (Options.Warm)
	guard Guard      // deep health's data folder check (Options.Guard)

	focus focusState // what the window shows (focus.go)

	mirrors historyMirrors // the agents' histories being mirrored (history.go)

	uploads      string // Options.Uploads
	uploadsQuota int64
	uploadsKeep  time.Duration
	space        uploadSpace // uploadspace.go

	// ws makes and keeps workspaces (SetWorkspaces; workspaces.go).
	ws WorkspaceManager
	// review reviews workspaces (SetReview; review.go).
	review *reviewer

	// hosts are the remote hosts (SetHosts; hosts.go).
	hosts HostManager

	// missingRetired: projects whose folder was found gone and whose warm
	// agents were retired (projects.go), so that each is retired once.
	missingRetired sync.Map
}

// New returns a service over the journal, the supervisor and the agents.
func New(store Store, runner Runner, agents Agents, opts Options) *Service {
	s := &Service{store: store, runner: runner, agents: agents, log: opts.Log,
		follow: opts.Follow.withDefaults(), started: time.Now()}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.warm = opts.Warm
	s.guard = opts.Guard
	s.uploads = opts.Uploads
	s.uploadsQuota, s.uploadsKeep = opts.UploadsQuota, opts.UploadsKeep
	if s.uploadsQuota <= 0 {
		s.uploadsQuota = DefaultUploadsQuota
	}
	if s.uploadsKeep <= 0 {
		s.uploadsKeep = DefaultUploadsKeep
	}
	s.bus = newBus(s, opts.WatchBuffer)
	s.health = newHealthCache(agents)
	runner.TapEvents(s.bus.tap)
	return s
}

// --- projects ---

// CreateProjectRequest is POST /api/projects.
type CreateProjectRequest struct {
	Name      string `json:"name"`
	Workspace string `json:"workspace"`
}

// CreateProject adds a project for an existing folder. A folder already
// used by a project gives that project back: one project per folder.
func (s *Service) CreateProject(ctx context.Context, req CreateProjectRequest) (run.Project, error) {
	ws, err := checkWorkspace(req.Workspace)
	if err != nil {
		return run.Project{}, err
	}
	name := strings.TrimSpace(req.Name)
	if name == "" {
		name = filepath.Base(ws)
	}
	if len(name) > MaxNameBytes || !utf8.ValidString(name) {
		return run.Project{}, badRequest("name must be valid text of at most %d bytes", MaxNameBytes)
	}
	existing, err := s.store.ListProjects(ctx)
	if err != nil {
		return run.Project{}, s.classify(ctx, "list projects", "project", err)
	}
	for _, p := range existing {
		if filepath.Clean(p.Workspace) == ws {
			return p, nil
		}
	}
	p, err := s.store.CreateProject(ctx, name, ws)
	if err == nil {
		s.sessionChanged(run.ProjectChanged, "", p.ID)
	}
	return p, s.classify(ctx, "create project", "project", err)
}

// checkWorkspace accepts only an existing absolute directory, cleaned.
func checkWorkspace(ws string) (string, error) {
	if ws == "" {
		return "", badRequest("workspace is required")
	}
	if !filepath.IsAbs(ws) {
		return "", badRequest("workspace must be an absolute path")
	}
	ws = filepath.Clean(ws)
	st, err := os.Stat(ws)
	if err != nil {
		return "", badRequest("workspace %q does not exist", ws)
	}
	if !st.IsDir() {
		return "", badRequest("workspace %q is not a folder", ws)
	}
	return ws, nil
}

// Projects lists every project, flagging those whose folder is gone.
func (s *Service) Projects(ctx context.Context) ([]run.Project, error) {
	ps, err := s.store.ListProjects(ctx)
	if err == nil {
		s.flagMissing(ctx, ps)
	}
	return nonNil(ps), s.classify(ctx, "list projects", "project", err)
}

// --- sessions ---

// CreateSessionRequest is POST /api/sessions.
type CreateSessionRequest struct {
	ProjectID string `json:"project_id"`
	Title     string `json:"title,omitempty"`
	Agent     string `json:"agent"`
	Model     string `json:"model,omitempty"`
	Profile   string `json:"profile,omitempty"`
	// Workspace is "checkout" (the default) or "worktree": a new git
	// worktree of the project, from Base ("" = the checkout's branch).
	// WorkspaceID instead names an existing workspace of the project
	// (docs/ARCHITECTURE.md §Workspaces).
	Workspace   string `json:"workspace,omitempty"`
	Base        string `json:"base,omitempty"`
	WorkspaceID string `json:"workspace_id,omitempty"`
}

// CreateSession opens a conversation with a known agent in a project.
func (s *Service) CreateSession(ctx context.Context, req CreateSessionRequest) (run.Session, error) {
	if req.ProjectID == "" {
		return run.Session{}, badRequest("project_id is required")
	}
	if req.Agent == "" {
		return run.Session{}, badRequest("agent is required")
	}
	if !s.agents.Known(req.Agent) {
		return run.Session{}, badRequest("unknown agent %q", req.Agent)
	}
	if err := checkTitle(req.Title); err != nil {
		return run.Session{}, err
	}
	// A project whose folder is gone (issue 23.12) or that has none (the
	// Imported place) takes no new session either: its first run could
	// not start.
	if err := s.checkRunnableProject(ctx, req.ProjectID); err != nil {
		return run.Session{}, err
	}
	wsID, err := s.sessionWorkspace(ctx, req)
	if err != nil {
		return run.Session{}, err
	}
	ses, err := s.store.CreateSession(ctx, run.Session{
		ProjectID: req.ProjectID, Title: strings.TrimSpace(req.Title),
		Agent: req.Agent, Model: req.Model, Profile: req.Profile,
	})
	if err == nil {
		if err := s.assignWorkspace(ctx, &ses, wsID); err != nil {
			return run.Session{}, err
		}
		s.sessionChanged(run.SessionCreated, ses.ID, ses.ProjectID)
	}
	return ses, s.classify(ctx, "create session", "session", err)
}

// errNoFolder refuses work in a project with no folder: the Imported place
// (docs/ARCHITECTURE.md §Bundles). An agent given no folder would run in
// whatever directory its process has — inside the data dir.
var errNoFolder = &Error{Code: CodeConflict, Message: "this place holds imported sessions only and has no folder to work in: start a session in a project"}

// checkRunnableProject refuses a project an agent cannot work in: one with
// no folder, or whose folder is missing.
func (s *Service) checkRunnableProject(ctx context.Context, projectID string) error {
	p, err := s.store.GetProject(ctx, projectID)
	if err != nil {
		return s.classify(ctx, "get project", "project", err)
	}
	if strings.TrimSpace(p.Workspace) == "" || !filepath.IsAbs(p.Workspace) {
		return errNoFolder
	}
	// A folder moved or deleted: refused before anything is sent, since an
	// agent started there could only fail, with a message about its
	// program rather than the folder (issue 23.12).
	ps := []run.Project{p}
	s.flagMissing(ctx, ps)
	if ps[0].FolderMissing {
		return &Error{Code: CodeFolderMissing,
			Message: fmt.Sprintf("the folder of the project %q is missing (moved or deleted): locate it or remove the project", p.Name)}
	}
	return nil
}

func checkTitle(t string) error {
	if len(t) > MaxTitleBytes || !utf8.ValidString(t) {
		return badRequest("title must be valid text of at most %d bytes", MaxTitleBytes)
	}
	return nil
}

// Sessions lists a project's sessions, most meaningful activity first.
func (s *Service) Sessions(ctx context.Context, projectID string) ([]run.Session, error) {
	ss, err := s.store.ListSessions(ctx, projectID)
	return nonNil(ss), s.classify(ctx, "list sessions", "session", err)
}

// MessageView is a message with its run's metadata, if it has a run. The
// run carries the message's status (Run.Status): it is sent once, so the
// message's own copy (run.Message.RunStatus, which bundles keep) is hidden
// here — a nil *struct{} of the same JSON name is never sent.
type MessageView struct {
	run.Message
	RunStatus *struct{} `json:"run_status,omitempty"`
	Run       *run.Run  `json:"run,omitempty"`
	// Review: a user message that sent a workspace review's comments
	// carries them, so the transcript shows a review card, not the text
	// (docs/ARCHITECTURE.md §Review).
	Review []run.ReviewComment `json:"review,omitempty"`
}

// SessionDetail is GET /api/sessions/{id}.
type SessionDetail struct {
	run.Session
	Messages []MessageView `json:"messages"`
}

// Session returns a session with its messages and their runs' metadata.
func (s *Service) Session(ctx context.Context, id string) (SessionDetail, error) {
	return s.SessionTail(ctx, id, 0)
}

// SessionTail is Session with only the last tail messages (all when tail
// is 0): the window re-reads an open session's tail after each run, not the
// whole of it, so a long session costs each run the same
// (docs/ARCHITECTURE.md §Memory, issue 23.20).
func (s *Service) SessionTail(ctx context.Context, id string, tail int) (SessionDetail, error) {
	ses, err := s.store.GetSession(ctx, id)
	if err != nil {
		return SessionDetail{}, s.classify(ctx, "get session", "session", err)
	}
	s.checkSessionWorkspace(ctx, ses)
	msgs, err := s.store.Messages(ctx, id)
	if err != nil {
		return SessionDetail{}, s.classify(ctx, "list messages", "session", err)
	}
	if tail > 0 && len(msgs) > tail {
		msgs = msgs[len(msgs)-tail:]
	}
	d := SessionDetail{Session: ses, Messages: make([]MessageView, 0, len(msgs))}
	sent := s.reviewsSent(ctx, ses) // review.go
	for _, m := range msgs {
		v := MessageView{Message: m}
		if m.Role == run.RoleUser {
			v.Review = sent[m.RunID]
		}
		if m.RunID != "" {
			r, err := s.store.GetRun(ctx, m.RunID)
			if err != nil {
				return SessionDetail{}, s.classify(ctx, "get run", "run", err)
			}
			v.Run = &r
		}
		d.Messages = append(d.Messages, v)
	}
	return d, nil
}

// UpdateSession renames or (un)archives a session, or sets the model
// and settings its next runs start with.
func (s *Service) UpdateSession(ctx context.Context, id string, p run.SessionUpdate) (run.Session, error) {
	p.NativeSessionID = nil // the agent's resume id is the shim's to store, no client's
	if p.Title != nil {
		if err := checkTitle(*p.Title); err != nil {
			return run.Session{}, err
		}
		t := strings.TrimSpace(*p.Title)
		p.Title = &t
	}
	if p.Model != nil {
		m := strings.TrimSpace(*p.Model)
		if len(m) > MaxNameBytes || !utf8.ValidString(m) || strings.ContainsAny(m, "\n\r\x00") {
			return run.Session{}, badRequest("model must be a model name")
		}
		p.Model = &m
	}
	if err := checkConfigChoices(p.Config); err != nil { // sessionconfig.go
		return run.Session{}, err
	}
	ses, err := s.store.UpdateSession(ctx, id, p)
	if err == nil {
		s.sessionRetitled(ses)
	}
	return ses, s.classify(ctx, "update session", "session", err)
}

// DeleteSession removes a session; one with an active run is a conflict
// (stop it first): deleting must never orphan a running agent.
func (s *Service) DeleteSession(ctx context.Context, id string) error {
	ses, err := s.store.GetSession(ctx, id)
	if err != nil {
		return s.classify(ctx, "get session", "session", err)
	}
	active, err := s.store.ListRuns(ctx, run.RunFilter{Active: true, SessionID: id})
	if err != nil {
		return s.classify(ctx, "list runs", "session", err)
	}
	if len(active) > 0 {
		return &Error{Code: CodeConflict, Message: "the session has a running agent; stop it first"}
	}
	if err := s.store.DeleteSession(ctx, id); err != nil {
		return s.classify(ctx, "delete session", "session", err)
	}
	s.sessionChanged(run.SessionDeleted, id, ses.ProjectID)
	return nil
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
