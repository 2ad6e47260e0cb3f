package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// The remote hosts routes (docs/ARCHITECTURE.md §Hosts, §API): thin over
// the service.

func (h *Handler) listHosts(w http.ResponseWriter, r *http.Request) {
	list, err := h.svc.Hosts(r.Context())
	reply(w, http.StatusOK, list, err)
}

func (h *Handler) addHost(w http.ResponseWriter, r *http.Request) {
	var req service.AddHostRequest
	if !decode(w, r, &req) {
		return
	}
	host, err := h.svc.AddHost(r.Context(), req)
	reply(w, http.StatusCreated, host, err)
}

func (h *Handler) removeHost(w http.ResponseWriter, r *http.Request) {
	err := h.svc.RemoveHost(r.Context(), r.PathValue("id"))
	if err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
