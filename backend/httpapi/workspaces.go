package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// The workspace routes (docs/ARCHITECTURE.md §Workspaces, §API): thin
// over the service.

func (h *Handler) listWorkspaces(w http.ResponseWriter, r *http.Request) {
	list, err := h.svc.Workspaces(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, list, err)
}

func (h *Handler) createWorkspace(w http.ResponseWriter, r *http.Request) {
	var req service.CreateWorkspaceRequest
	if !decodeOptional(w, r, &req) {
		return
	}
	ws, err := h.svc.CreateWorkspace(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusCreated, ws, err)
}

func (h *Handler) getWorkspace(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.Workspace(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, d, err)
}

func (h *Handler) archiveWorkspace(w http.ResponseWriter, r *http.Request) {
	ws, err := h.svc.ArchiveWorkspace(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, ws, err)
}

func (h *Handler) restoreWorkspace(w http.ResponseWriter, r *http.Request) {
	ws, err := h.svc.RestoreWorkspace(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, ws, err)
}

func (h *Handler) moveSession(w http.ResponseWriter, r *http.Request) {
	var req service.SessionWorkspaceRequest
	if !decode(w, r, &req) {
		return
	}
	s, err := h.svc.MoveSession(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusOK, s, err)
}
