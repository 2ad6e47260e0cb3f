package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// exportSession: ?format=markdown|bundle, ?run=ID for one run. The file
// comes back in JSON ({filename, content_type, content}) so every door —
// the window's Request binding included — carries it the same way.
func (h *Handler) exportSession(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res, err := h.svc.ExportSession(r.Context(), r.PathValue("id"), q.Get("run"), q.Get("format"))
	reply(w, http.StatusOK, res, err)
}

// importBundle: {path, project_id?} of a bundle on this machine (the 1 MiB
// body limit stays; the file travels by path). 201 with the new read-only
// session; 200 with the earlier one (already_imported) for the same bundle.
func (h *Handler) importBundle(w http.ResponseWriter, r *http.Request) {
	var body service.ImportRequest
	if !decode(w, r, &body) {
		return
	}
	s, err := h.svc.ImportFile(r.Context(), body)
	status := http.StatusCreated
	if s.AlreadyImported {
		status = http.StatusOK
	}
	reply(w, status, s, err)
}
