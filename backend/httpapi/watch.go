package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// watch is GET /api/watch, the watch bus (docs/ARCHITECTURE.md "The watch
// bus"): SSE where each `data:` line is one run.WatchMessage — the snapshot
// first, then changes, until a goodbye. With Accept: application/json it
// answers the snapshot alone (the window's Request path, which then
// follows the bus through its own events). ?doorbells=1 adds doorbell
// messages: (run, newest seq), coalesced per run per DoorbellWindow.
// ?client=ID names the page's focus client (PUT /api/client/focus).
func (h *Handler) watch(w http.ResponseWriter, r *http.Request) {
	if wantsPage(r) {
		snap, err := h.svc.Snapshot(r.Context())
		reply(w, http.StatusOK, snap, err)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	ch, err := h.svc.Watch(ctx)
	if err != nil {
		fail(w, err)
		return
	}
	// ?client=ID: a page's stream; its focus claim ends with its last one
	// (docs/ARCHITECTURE.md §Notifications).
	defer h.svc.ClientWatching(r.URL.Query().Get("client"))()
	s := startSSE(w)

	var bg sync.WaitGroup
	// Nothing may write to w after the handler returns.
	defer func() { cancel(); bg.Wait() }()
	bg.Add(1)
	go func() {
		defer bg.Done()
		s.heartbeat(ctx, h.cfg.Heartbeat, cancel)
	}()
	var (
		busMu  sync.Mutex
		busSeq int64
	)
	if r.URL.Query().Get("doorbells") == "1" {
		bg.Add(1)
		go func() {
			defer bg.Done()
			Coalesce(ctx, h.cfg.Rings, DoorbellWindow, func(runID string, seq int64) {
				busMu.Lock()
				m := run.WatchMessage{Seq: busSeq, Type: run.WatchDoorbell, Run: &run.RunState{RunID: runID, LastSeq: seq}}
				busMu.Unlock()
				if writeWatch(s, m) != nil {
					cancel()
				}
			})
		}()
	}
	for m := range ch {
		busMu.Lock()
		busSeq = max(busSeq, m.Seq)
		busMu.Unlock()
		if writeWatch(s, m) != nil {
			return
		}
	}
}

func writeWatch(s *sse, m run.WatchMessage) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	s.writeRaw("data: " + string(b) + "\n\n")
	return s.flush()
}

// agents is GET /api/agents: the cached health; ?refresh=1 checks again
// (Settings' "Re-check") and tells watchers.
func (h *Handler) agents(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("refresh") == "1" {
		as, err := h.svc.RecheckAgents(r.Context())
		reply(w, http.StatusOK, as, err)
		return
	}
	as, err := h.svc.Agents(r.Context())
	reply(w, http.StatusOK, as, err)
}

// agentModels is GET /api/agents/{name}/models: the agent's models from
// its server, as last asked; ?refresh=1 asks again.
func (h *Handler) agentModels(w http.ResponseWriter, r *http.Request) {
	ms, err := h.svc.AgentModels(r.Context(), r.PathValue("name"), r.URL.Query().Get("refresh") == "1")
	reply(w, http.StatusOK, ms, err)
}

// agentConfig is GET /api/agents/{name}/config: the agent's settings for
// a new session as last reported on this machine (docs/ARCHITECTURE.md
// §Session config options).
func (h *Handler) agentConfig(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.AgentConfig(r.Context(), r.PathValue("name"))
	reply(w, http.StatusOK, c, err)
}

// Watch follows the watch bus of whatever this handler serves: the
// service in this process, or the data dir's supervisor over the local
// socket for a proxy. The app's tray count and window read it.
func (h *Handler) Watch(ctx context.Context) (<-chan run.WatchMessage, error) {
	if h.svc != nil {
		return h.svc.Watch(ctx)
	}
	if h.remote != nil {
		return h.remote.Watch(ctx, false)
	}
	return nil, &service.Error{Code: service.CodeUnavailable, Message: "nothing to watch"}
}

// WatchWithDoorbells is a proxy's one stream of the owner's bus with its
// doorbells (GET /api/watch?doorbells=1, coalesced there per watcher): the
// window process follows the core through it alone.
func (h *Handler) WatchWithDoorbells(ctx context.Context) (<-chan run.WatchMessage, error) {
	if h.remote == nil {
		return nil, &service.Error{Code: service.CodeUnavailable, Message: "doorbells are followed through a proxy"}
	}
	return h.remote.Watch(ctx, true)
}
