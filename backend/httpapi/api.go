package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

func (h *Handler) createProject(w http.ResponseWriter, r *http.Request) {
	var req service.CreateProjectRequest
	if !decode(w, r, &req) {
		return
	}
	p, err := h.svc.CreateProject(r.Context(), req)
	reply(w, http.StatusCreated, p, err)
}

func (h *Handler) listProjects(w http.ResponseWriter, r *http.Request) {
	ps, err := h.svc.Projects(r.Context())
	reply(w, http.StatusOK, ps, err)
}

func (h *Handler) patchProject(w http.ResponseWriter, r *http.Request) {
	var p service.ProjectPatch
	if !decode(w, r, &p) {
		return
	}
	pr, err := h.svc.UpdateProject(r.Context(), r.PathValue("id"), p)
	reply(w, http.StatusOK, pr, err)
}

func (h *Handler) deleteProject(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.DeleteProject(r.Context(), r.PathValue("id")); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) createSession(w http.ResponseWriter, r *http.Request) {
	var req service.CreateSessionRequest
	if !decode(w, r, &req) {
		return
	}
	s, err := h.svc.CreateSession(r.Context(), req)
	reply(w, http.StatusCreated, s, err)
}

func (h *Handler) listSessions(w http.ResponseWriter, r *http.Request) {
	ss, err := h.svc.Sessions(r.Context(), r.URL.Query().Get("project_id"))
	reply(w, http.StatusOK, ss, err)
}

func (h *Handler) getSession(w http.ResponseWriter, r *http.Request) {
	tail := 0
	if v := r.URL.Query().Get("tail"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, service.CodeBadRequest, "tail must be a non-negative number of messages")
			return
		}
		tail = n
	}
	s, err := h.svc.SessionTail(r.Context(), r.PathValue("id"), tail)
	reply(w, http.StatusOK, s, err)
}

func (h *Handler) patchSession(w http.ResponseWriter, r *http.Request) {
	var p run.SessionUpdate
	if !decode(w, r, &p) {
		return
	}
	s, err := h.svc.UpdateSession(r.Context(), r.PathValue("id"), p)
	reply(w, http.StatusOK, s, err)
}

func (h *Handler) deleteSession(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.DeleteSession(r.Context(), r.PathValue("id")); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) startRun(w http.ResponseWriter, r *http.Request) {
	var req run.StartRequest
	if !decode(w, r, &req) {
		return
	}
	res, err := h.svc.StartRun(r.Context(), req)
	reply(w, http.StatusAccepted, res, err)
}

func (h *Handler) listRuns(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := run.RunFilter{ProjectID: q.Get("project_id"), SessionID: q.Get("session_id")}
	switch q.Get("status") {
	case "":
	case "active":
		f.Active = true
	default:
		writeError(w, http.StatusBadRequest, service.CodeBadRequest, `status must be "active" or absent`)
		return
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, service.CodeBadRequest, "limit must be a non-negative number")
			return
		}
		f.Limit = n
	}
	rs, err := h.svc.Runs(r.Context(), f)
	reply(w, http.StatusOK, rs, err)
}

func (h *Handler) getRun(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.Run(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, res, err)
}

// Controls on an existing run always answer 200 with the ControlResult;
// unknown run 404, malformed body 400.

// runLog is the end of a run's log ("Open log" on an error card).
func (h *Handler) runLog(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.RunLog(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, res, err)
}

// cancel: {"force": true} kills the agent at once (Force stop), also on a
// run already cancelling.
func (h *Handler) cancel(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Force bool `json:"force"`
	}
	if !decodeOptional(w, r, &body) {
		return
	}
	var res run.ControlResult
	var err error
	if body.Force {
		res, err = h.svc.ForceCancel(r.Context(), r.PathValue("id"))
	} else {
		res, err = h.svc.Cancel(r.Context(), r.PathValue("id"))
	}
	reply(w, http.StatusOK, res, err)
}

// resume starts a parked run now (docs/ARCHITECTURE.md §Usage, parked runs).
func (h *Handler) resume(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.Resume(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, res, err)
}

func (h *Handler) approve(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Choice string `json:"choice"`
	}
	if !decode(w, r, &body) {
		return
	}
	res, err := h.svc.Approve(r.Context(), r.PathValue("id"), r.PathValue("approval_id"), body.Choice)
	if err == nil && res.Status == run.ControlInvalid {
		// A choice that matches no offered option is bad input, not a
		// state of the run: 400 naming the choices (§Controls).
		writeError(w, http.StatusBadRequest, service.CodeBadRequest, res.Message)
		return
	}
	reply(w, http.StatusOK, res, err)
}

func (h *Handler) clarify(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Answer string `json:"answer"`
	}
	if !decode(w, r, &body) {
		return
	}
	res, err := h.svc.Clarify(r.Context(), r.PathValue("id"), r.PathValue("clarify_id"), body.Answer)
	reply(w, http.StatusOK, res, err)
}

func (h *Handler) queue(w http.ResponseWriter, r *http.Request) {
	var req service.QueueRequest
	if !decode(w, r, &req) {
		return
	}
	res, err := h.svc.Queue(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusOK, res, err)
}

func (h *Handler) setModel(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model string `json:"model"`
	}
	if !decode(w, r, &body) {
		return
	}
	res, err := h.svc.SetModel(r.Context(), r.PathValue("id"), body.Model)
	reply(w, http.StatusOK, res, err)
}

// setConfig: {"option": id, "value": v} sets one of the agent's session
// settings; a value the setting does not offer is a 400.
func (h *Handler) setConfig(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Option string `json:"option"`
		Value  string `json:"value"`
	}
	if !decode(w, r, &body) {
		return
	}
	res, err := h.svc.SetConfig(r.Context(), r.PathValue("id"), body.Option, body.Value)
	if err == nil && res.Status == run.ControlInvalid {
		writeError(w, http.StatusBadRequest, service.CodeBadRequest, res.Message)
		return
	}
	reply(w, http.StatusOK, res, err)
}

func (h *Handler) search(w http.ResponseWriter, r *http.Request) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	hits, err := h.svc.Search(r.Context(), r.URL.Query().Get("q"), limit)
	reply(w, http.StatusOK, hits, err)
}

func (h *Handler) getSettings(w http.ResponseWriter, r *http.Request) {
	s, err := h.svc.Settings(r.Context())
	reply(w, http.StatusOK, s, err)
}

func (h *Handler) putSettings(w http.ResponseWriter, r *http.Request) {
	var in map[string]json.RawMessage
	if !decode(w, r, &in) {
		return
	}
	s, err := h.svc.PutSettings(r.Context(), in)
	reply(w, http.StatusOK, s, err)
}

// putFocus: the window says which session it shows and whether it has
// the focus, so notifications skip what the person is looking at.
func (h *Handler) putFocus(w http.ResponseWriter, r *http.Request) {
	var in service.ClientFocus
	if !decode(w, r, &in) {
		return
	}
	f, err := h.svc.SetClientFocus(r.Context(), in)
	reply(w, http.StatusOK, f, err)
}

func (h *Handler) audit(w http.ResponseWriter, r *http.Request) {
	a, err := h.svc.Audit(r.Context())
	reply(w, http.StatusOK, a, err)
}

// health: plain health needs no token and says only "ok"; ?deep=1 needs
// the token (the guard enforces it) and reports the database and shims.
func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	if !isDeepHealth(r) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte("ok\n"))
		return
	}
	hl := h.svc.Health(r.Context())
	status := http.StatusOK
	if !hl.OK {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, hl)
}

func isDeepHealth(r *http.Request) bool {
	d := r.URL.Query().Get("deep")
	return d != "" && d != "0" && d != "false"
}

func reply(w http.ResponseWriter, status int, v any, err error) {
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, status, v)
}
