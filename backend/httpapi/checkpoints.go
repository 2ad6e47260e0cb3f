package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Checkpoints (docs/ARCHITECTURE.md §Checkpoints): thin doors onto the
// service.

// undoRun: POST /api/runs/{id}/undo reverses what the run changed; a
// conflict (409) names the files changed since.
func (h *Handler) undoRun(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.UndoRun(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, res, err)
}

// undoCheckpoint: POST /api/checkpoints/{id}/undo undoes an undo or a
// restore.
func (h *Handler) undoCheckpoint(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.UndoCheckpoint(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, res, err)
}

// restore: POST /api/sessions/{id}/restore?turn=T[&preview=1][&remove_created=1].
func (h *Handler) restore(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res, err := h.svc.Restore(r.Context(), service.RestoreRequest{SessionID: r.PathValue("id"), TurnID: q.Get("turn"),
		Preview: q.Get("preview") == "1", RemoveCreated: q.Get("remove_created") == "1"})
	reply(w, http.StatusOK, res, err)
}

// fork: POST /api/sessions/{id}/fork {turn} answers the new session.
func (h *Handler) fork(w http.ResponseWriter, r *http.Request) {
	var req service.ForkRequest
	if !decode(w, r, &req) {
		return
	}
	req.SessionID = r.PathValue("id")
	res, err := h.svc.Fork(r.Context(), req)
	reply(w, http.StatusCreated, res, err)
}

// sessionCheckpoints: GET /api/sessions/{id}/checkpoints.
func (h *Handler) sessionCheckpoints(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.Checkpoints(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, map[string]any{"checkpoints": res}, err)
}

// checkpointUsage: GET /api/checkpoints/usage, the disk they use.
func (h *Handler) checkpointUsage(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.CheckpointUsage(r.Context())
	reply(w, http.StatusOK, res, err)
}
