package httpapi

import "net/http"

// GET /api/projects/{id}/conflicts: the conflict radar's overlaps between
// the project's worktrees and the suggested merge order
// (docs/ARCHITECTURE.md §Conflict radar), thin over the service.
func (h *Handler) projectConflicts(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.Conflicts(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, c, err)
}
