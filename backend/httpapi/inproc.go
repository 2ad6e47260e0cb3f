package httpapi

import (
	"bytes"
	"context"
	"net/http"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Do executes one API request in-process, for the desktop app's bound
// method: the same routes, validation and JSON as HTTP, trusted (no token;
// the webview is our own page). There is no SSE on this path: event
// requests always get a JSON page, and live updates come as doorbells
// (Doorbells) after which the app pulls the next page.
func (h *Handler) Do(method, path, body string) (status int, respBody string) {
	return h.DoContext(context.Background(), method, path, body)
}

// DoContext is Do bounded by ctx.
func (h *Handler) DoContext(ctx context.Context, method, path, body string) (int, string) {
	if !strings.HasPrefix(path, "/api/") {
		return errorString(http.StatusNotFound, service.CodeNotFound, "only /api/ routes are served in-process")
	}
	req, err := http.NewRequestWithContext(WithTrusted(ctx), strings.ToUpper(method), path, strings.NewReader(body))
	if err != nil {
		return errorString(http.StatusBadRequest, service.CodeBadRequest, "malformed request line")
	}
	req.RemoteAddr = "inproc"
	req.Header.Set("Accept", "application/json")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := &recorder{header: http.Header{}}
	h.ServeHTTP(rec, req)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec.status, rec.body.String()
}

func errorString(status int, code service.Code, msg string) (int, string) {
	rec := &recorder{header: http.Header{}}
	writeError(rec, status, code, msg)
	return rec.status, rec.body.String()
}

// recorder is a minimal in-memory ResponseWriter.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
