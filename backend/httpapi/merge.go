package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// The merge routes (docs/ARCHITECTURE.md §Merge, §API): thin over the
// service; a refusal is 409 with its sentence.

func (h *Handler) previewMerge(w http.ResponseWriter, r *http.Request) {
	var req service.MergeRequest
	if !decodeOptional(w, r, &req) {
		return
	}
	p, err := h.svc.MergePreview(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusOK, p, err)
}

func (h *Handler) mergeWorkspace(w http.ResponseWriter, r *http.Request) {
	var req service.MergeRequest
	if !decodeOptional(w, r, &req) {
		return
	}
	res, err := h.svc.MergeWorkspace(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusOK, res, err)
}

func (h *Handler) resolveMerge(w http.ResponseWriter, r *http.Request) {
	var req service.MergeRequest
	if !decodeOptional(w, r, &req) {
		return
	}
	res, err := h.svc.ResolveMerge(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusAccepted, res, err)
}

func (h *Handler) pushWorkspace(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.PushWorkspace(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, res, err)
}

func (h *Handler) openPullRequest(w http.ResponseWriter, r *http.Request) {
	var req service.PullRequestRequest
	if !decodeOptional(w, r, &req) {
		return
	}
	res, err := h.svc.OpenPullRequest(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusCreated, res, err)
}
