package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/agents/agentdef"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Agents a person adds: POST /api/agents, PATCH|DELETE /api/agents/{id}
// (docs/ARCHITECTURE.md §Agents are data). The service checks them.

func (h *Handler) addAgent(w http.ResponseWriter, r *http.Request) {
	var d agentdef.Definition
	if !decode(w, r, &d) {
		return
	}
	out, err := h.svc.AddAgent(r.Context(), d)
	reply(w, http.StatusCreated, out, err)
}

func (h *Handler) patchAgent(w http.ResponseWriter, r *http.Request) {
	var p service.AgentPatch
	if !decode(w, r, &p) {
		return
	}
	out, err := h.svc.UpdateAgent(r.Context(), r.PathValue("id"), p)
	reply(w, http.StatusOK, out, err)
}

func (h *Handler) removeAgent(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.RemoveAgent(r.Context(), r.PathValue("id")); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// agentRegistry is GET /api/agents/registry: the shipped ACP registry
// snapshot, as "Add agent" offers it.
func (h *Handler) agentRegistry(w http.ResponseWriter, r *http.Request) {
	out, err := h.svc.ACPRegistry(r.Context())
	reply(w, http.StatusOK, out, err)
}
