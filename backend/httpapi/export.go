package httpapi

import (
	"net/http"
)

// exportSession: ?format=markdown|bundle, ?run=ID for one run. The file
// comes back in JSON ({filename, content_type, content}) so every door —
// the window's Request binding included — carries it the same way.
func (h *Handler) exportSession(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res, err := h.svc.ExportSession(r.Context(), r.PathValue("id"), q.Get("run"), q.Get("format"))
	reply(w, http.StatusOK, res, err)
}

// importBundle: {path} of a bundle on this machine (the 1 MiB body limit
// stays; the file travels by path). 201 with the new read-only session.
func (h *Handler) importBundle(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Path string `json:"path"`
	}
	if !decode(w, r, &body) {
		return
	}
	s, err := h.svc.ImportFile(r.Context(), body.Path)
	reply(w, http.StatusCreated, s, err)
}
