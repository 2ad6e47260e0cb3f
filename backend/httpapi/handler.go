// Package httpapi serves the service over HTTP + SSE (docs/ARCHITECTURE.md §API): the
// routes of the API, the embedded frontend, and the security around them
// (bearer token, Origin and Host checks, body limits, CSP). The same
// Handler serves `hermesdesk serve` over TCP, the supervisor's local unix
// socket (trusted by peer uid, no token) and the desktop app in-process
// (Do). Handlers are thin: decode, call the service, encode.
package httpapi

import (
	"io/fs"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// MaxBodyBytes limits every request body; attachments travel by path.
const MaxBodyBytes = 1 << 20

const defaultHeartbeat = 15 * time.Second

func defaultLog() *slog.Logger { return slog.Default() }

// Config configures a Handler.
type Config struct {
	// Token is the bearer token TCP clients must send. Empty refuses every
	// untrusted API request (never "no auth").
	Token string
	// AllowedHosts are Host names accepted besides loopback names and IP
	// literals (which DNS rebinding cannot forge), e.g. a LAN host name
	// for --allow-remote.
	AllowedHosts []string
	// Frontend is the built web app (index.html at its root); nil serves a
	// short page saying it was not built.
	Frontend fs.FS
	// Heartbeat is the SSE keep-alive comment interval (default 15 s).
	Heartbeat time.Duration
	// Rings feeds Doorbells (the desktop app's live updates); nil: the
	// service's own (every live event of every active run).
	Rings RingSource
	// BodyTimeout bounds how long an untrusted request's body may take to
	// arrive (default DefaultBodyTimeout).
	BodyTimeout time.Duration
	// Hosts, if set, answers /api/hosts/{host}/… : a remote core's API
	// behind this one (backend/remote, docs/ARCHITECTURE.md §Remote cores).
	Hosts http.Handler
	Log   *slog.Logger
}

// Handler is the HTTP API. It is safe for concurrent use.
type Handler struct {
	svc  *service.Service
	cfg  Config
	log  *slog.Logger
	mux  *http.ServeMux
	root http.Handler
	// remote is the local API a proxy forwards to (nil in-process).
	remote *Client
	// token replaces cfg.Token once SetToken was called (serve.token
	// deleted or replaced while serving).
	token atomic.Pointer[string]
}

// SetToken replaces the bearer token: from now on only tok is accepted.
func (h *Handler) SetToken(tok string) { h.token.Store(&tok) }

func (h *Handler) currentToken() string {
	if t := h.token.Load(); t != nil {
		return *t
	}
	return h.cfg.Token
}

var _ http.Handler = (*Handler)(nil)

// New returns the API handler over svc.
func New(svc *service.Service, cfg Config) *Handler {
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = defaultHeartbeat
	}
	if cfg.Rings == nil {
		cfg.Rings = svc.Rings
	}
	h := &Handler{svc: svc, cfg: cfg, log: cfg.Log, mux: http.NewServeMux()}
	if h.log == nil {
		h.log = defaultLog()
	}
	h.routes()
	h.root = h.guard(h.mux)
	return h
}

func (h *Handler) routes() {
	m := h.mux
	m.HandleFunc("POST /api/projects", h.createProject)
	if h.cfg.Hosts != nil {
		m.Handle("/api/hosts/{host}/", http.MaxBytesHandler(h.cfg.Hosts, MaxBodyBytes))
		// An attachment goes to the host whole: its core applies its own
		// upload limit (20 MiB), as for POST /api/uploads.
		m.Handle("POST /api/hosts/{host}/uploads", h.cfg.Hosts)
	}
	m.HandleFunc("GET /api/projects", h.listProjects)
	m.HandleFunc("PATCH /api/projects/{id}", h.patchProject)
	m.HandleFunc("DELETE /api/projects/{id}", h.deleteProject)
	m.HandleFunc("GET /api/projects/{id}/workspaces", h.listWorkspaces)
	m.HandleFunc("POST /api/projects/{id}/workspaces", h.createWorkspace)
	m.HandleFunc("GET /api/projects/{id}/conflicts", h.projectConflicts)
	m.HandleFunc("GET /api/workspaces/{id}", h.getWorkspace)
	m.HandleFunc("POST /api/workspaces/{id}/archive", h.archiveWorkspace)
	m.HandleFunc("POST /api/workspaces/{id}/restore", h.restoreWorkspace)
	h.reviewRoutes() // review.go (docs/ARCHITECTURE.md §Review)
	m.HandleFunc("POST /api/workspaces/{id}/merge/preview", h.previewMerge)
	m.HandleFunc("POST /api/workspaces/{id}/merge", h.mergeWorkspace)
	m.HandleFunc("POST /api/workspaces/{id}/merge/resolve", h.resolveMerge)
	m.HandleFunc("POST /api/workspaces/{id}/push", h.pushWorkspace)
	m.HandleFunc("POST /api/workspaces/{id}/pr", h.openPullRequest)
	m.HandleFunc("POST /api/sessions/{id}/workspace", h.moveSession)
	m.HandleFunc("POST /api/sessions", h.createSession)
	m.HandleFunc("GET /api/sessions", h.listSessions)
	m.HandleFunc("GET /api/sessions/{id}", h.getSession)
	m.HandleFunc("PATCH /api/sessions/{id}", h.patchSession)
	m.HandleFunc("DELETE /api/sessions/{id}", h.deleteSession)
	m.HandleFunc("GET /api/sessions/{id}/export", h.exportSession)
	m.HandleFunc("POST /api/import", h.importBundle)
	m.HandleFunc("GET /api/history/sources", h.historySources)
	m.HandleFunc("GET /api/history/offer", h.historyOffer)
	m.HandleFunc("POST /api/history/import", h.importHistory)
	m.HandleFunc("POST /api/sessions/{id}/continue", h.continueSession)
	m.HandleFunc("POST /api/uploads", h.upload)
	m.HandleFunc("POST /api/runs", h.startRun)
	m.HandleFunc("GET /api/runs", h.listRuns)
	m.HandleFunc("GET /api/runs/{id}", h.getRun)
	m.HandleFunc("GET /api/runs/{id}/events", h.events)
	m.HandleFunc("GET /api/runs/{id}/log", h.runLog)
	m.HandleFunc("POST /api/runs/{id}/cancel", h.cancel)
	m.HandleFunc("POST /api/runs/{id}/resume", h.resume)
	m.HandleFunc("POST /api/runs/{id}/approvals/{approval_id}", h.approve)
	m.HandleFunc("POST /api/runs/{id}/clarify/{clarify_id}", h.clarify)
	m.HandleFunc("POST /api/runs/{id}/queue", h.queue)
	m.HandleFunc("POST /api/runs/{id}/model", h.setModel)
	m.HandleFunc("POST /api/runs/{id}/config", h.setConfig)
	m.HandleFunc("POST /api/runs/{id}/undo", h.undoRun)
	m.HandleFunc("POST /api/sessions/{id}/restore", h.restore)
	m.HandleFunc("POST /api/sessions/{id}/fork", h.fork)
	m.HandleFunc("GET /api/sessions/{id}/checkpoints", h.sessionCheckpoints)
	m.HandleFunc("POST /api/checkpoints/{id}/undo", h.undoCheckpoint)
	m.HandleFunc("GET /api/checkpoints/usage", h.checkpointUsage)
	m.HandleFunc("GET /api/search", h.search)
	m.HandleFunc("GET /api/usage", h.usageTotals)
	m.HandleFunc("GET /api/usage/quota", h.quota)
	m.HandleFunc("GET /api/settings", h.getSettings)
	m.HandleFunc("PUT /api/settings", h.putSettings)
	m.HandleFunc("PUT /api/client/focus", h.putFocus)
	m.HandleFunc("GET /api/agents", h.agents)
	m.HandleFunc("GET /api/agents/{name}/models", h.agentModels)
	m.HandleFunc("GET /api/agents/{name}/config", h.agentConfig)
	m.HandleFunc("POST /api/agents", h.addAgent)
	m.HandleFunc("GET /api/agents/registry", h.agentRegistry)
	m.HandleFunc("PATCH /api/agents/{id}", h.patchAgent)
	m.HandleFunc("DELETE /api/agents/{id}", h.removeAgent)
	m.HandleFunc("GET /api/audit", h.audit)
	m.HandleFunc("GET /api/health", h.health)
	m.HandleFunc("GET /api/schedules", h.listSchedules)
	m.HandleFunc("POST /api/schedules", h.createSchedule)
	m.HandleFunc("GET /api/schedules/preview", h.previewSchedule)
	m.HandleFunc("GET /api/schedules/{id}", h.getSchedule)
	m.HandleFunc("PATCH /api/schedules/{id}", h.patchSchedule)
	m.HandleFunc("DELETE /api/schedules/{id}", h.deleteSchedule)
	m.HandleFunc("POST /api/schedules/{id}/run", h.runSchedule)
	m.HandleFunc("GET /api/schedules/{id}/history", h.scheduleHistory)
	m.HandleFunc("GET /api/hosts", h.listHosts)
	m.HandleFunc("POST /api/hosts", h.addHost)
	m.HandleFunc("DELETE /api/hosts/{id}", h.removeHost)
	m.HandleFunc("GET /api/watch", h.watch)
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, service.CodeNotFound, "no such API route")
	})
	m.Handle("/", h.static())
}

// ServeHTTP applies the security checks, then routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.root.ServeHTTP(w, r) }
