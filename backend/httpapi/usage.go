package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// usageTotals: GET /api/usage?group=day|agent|model|project&since=YYYY-MM-DD
// (default: the last 30 days by day); format=csv answers the same table as
// a CSV file in an export's JSON ({filename, content_type, content}).
func (h *Handler) usageTotals(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch q.Get("format") {
	case "", "json":
	case "csv":
		res, err := h.svc.UsageCSV(r.Context(), q.Get("group"), q.Get("since"))
		reply(w, http.StatusOK, res, err)
		return
	default:
		fail(w, &service.Error{Code: service.CodeBadRequest, Message: `format must be "json" or "csv"`})
		return
	}
	res, err := h.svc.Usage(r.Context(), q.Get("group"), q.Get("since"))
	reply(w, http.StatusOK, res, err)
}

// quota: GET /api/usage/quota, every vendor's latest known window.
func (h *Handler) quota(w http.ResponseWriter, r *http.Request) {
	lines, err := h.svc.Quota(r.Context())
	reply(w, http.StatusOK, map[string]any{"quota": lines}, err)
}
