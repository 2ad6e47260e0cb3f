package httpapi

import (
	"net/http"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// UploadBodyTimeout is how long an upload's body may take to arrive: an
// attachment of up to 20 MiB from another machine needs longer than a JSON
// request's DefaultBodyTimeout (docs/ARCHITECTURE.md §Security, serve mode).
const UploadBodyTimeout = 2 * time.Minute

// upload: POST /api/uploads?name=shot.png with the file's bytes as the
// body (any Content-Type). 201 {path, name, size}; the path is then sent
// in a run's attachments. The body is streamed to disk, never held in
// memory, and is the one body allowed past MaxBodyBytes.
func (h *Handler) upload(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength > service.MaxAttachmentBytes {
		// Refused before reading: the connection closes so the sender
		// stops, and nothing is stored.
		w.Header().Set("Connection", "close")
		fail(w, service.ErrUploadTooLarge)
		return
	}
	res, err := h.svc.SaveUpload(r.Context(), r.URL.Query().Get("name"), r.ContentLength, r.Body)
	if err != nil && isTimeout(err) {
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestTimeout, service.CodeBadRequest, "the upload took too long to arrive")
		return
	}
	if err != nil && service.CodeOf(err) == service.CodeTooLarge {
		w.Header().Set("Connection", "close")
	}
	reply(w, http.StatusCreated, res, err)
}
