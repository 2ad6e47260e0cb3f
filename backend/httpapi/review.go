package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/review"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// The review routes (docs/ARCHITECTURE.md §Review, §API): thin over the
// service.

func (h *Handler) reviewRoutes() {
	m := h.mux
	m.HandleFunc("GET /api/workspaces/{id}/review", h.getReview)
	m.HandleFunc("GET /api/workspaces/{id}/review/diff", h.reviewDiff)
	m.HandleFunc("PUT /api/workspaces/{id}/review/viewed", h.markViewed)
	m.HandleFunc("POST /api/workspaces/{id}/review/comments", h.addReviewComment)
	m.HandleFunc("PATCH /api/workspaces/{id}/review/comments/{cid}", h.editReviewComment)
	m.HandleFunc("DELETE /api/workspaces/{id}/review/comments/{cid}", h.deleteReviewComment)
	m.HandleFunc("POST /api/workspaces/{id}/review/send", h.sendReview)
	m.HandleFunc("POST /api/workspaces/{id}/review/revert", h.revertFile)
}

func (h *Handler) getReview(w http.ResponseWriter, r *http.Request) {
	rv, err := h.svc.Review(r.Context(), r.PathValue("id"))
	reply(w, http.StatusOK, rv, err)
}

func (h *Handler) reviewDiff(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.ReviewDiff(r.Context(), r.PathValue("id"), r.URL.Query().Get("path"))
	reply(w, http.StatusOK, d, err)
}

func (h *Handler) markViewed(w http.ResponseWriter, r *http.Request) {
	var req service.ViewedRequest
	if !decode(w, r, &req) {
		return
	}
	err := h.svc.MarkViewed(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusOK, map[string]bool{"viewed": req.Viewed}, err)
}

func (h *Handler) addReviewComment(w http.ResponseWriter, r *http.Request) {
	var req review.CommentRequest
	if !decode(w, r, &req) {
		return
	}
	c, err := h.svc.AddReviewComment(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusCreated, c, err)
}

func (h *Handler) editReviewComment(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Text string `json:"text"`
	}
	if !decode(w, r, &req) {
		return
	}
	c, err := h.svc.EditReviewComment(r.Context(), r.PathValue("id"), r.PathValue("cid"), req.Text)
	reply(w, http.StatusOK, c, err)
}

func (h *Handler) deleteReviewComment(w http.ResponseWriter, r *http.Request) {
	err := h.svc.DeleteReviewComment(r.Context(), r.PathValue("id"), r.PathValue("cid"))
	reply(w, http.StatusOK, map[string]bool{"deleted": true}, err)
}

func (h *Handler) sendReview(w http.ResponseWriter, r *http.Request) {
	var req review.SendRequest
	if !decodeOptional(w, r, &req) {
		return
	}
	res, err := h.svc.SendReview(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusAccepted, res, err)
}

func (h *Handler) revertFile(w http.ResponseWriter, r *http.Request) {
	var req review.RevertRequest
	if !decode(w, r, &req) {
		return
	}
	res, err := h.svc.RevertFile(r.Context(), r.PathValue("id"), req)
	reply(w, http.StatusOK, res, err)
}
