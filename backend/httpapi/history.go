package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// The agents' own histories (docs/ARCHITECTURE.md §History).

func (h *Handler) historySources(w http.ResponseWriter, r *http.Request) {
	srcs, err := h.svc.HistorySources(r.Context())
	reply(w, http.StatusOK, srcs, err)
}

func (h *Handler) historyOffer(w http.ResponseWriter, r *http.Request) {
	offers, err := h.svc.HistoryOffers(r.Context())
	reply(w, http.StatusOK, offers, err)
}

func (h *Handler) importHistory(w http.ResponseWriter, r *http.Request) {
	var body service.HistoryImportRequest
	if !decode(w, r, &body) {
		return
	}
	res, err := h.svc.ImportHistory(r.Context(), body)
	reply(w, http.StatusOK, res, err)
}

func (h *Handler) continueSession(w http.ResponseWriter, r *http.Request) {
	ses, err := h.svc.ContinueSession(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, ses, err)
}
