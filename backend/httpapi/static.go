package httpapi

import (
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// CSP is the Content-Security-Policy of the web app: only its own scripts
// and styles, no inline script, no eval, no framing, API calls to itself.
// Agent output is rendered as sanitized Markdown; this is the second wall.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
	"frame-ancestors 'none'; form-action 'self'"

// static serves the built frontend; unknown paths without an extension get
// index.html (client-side routes). The login link `/?token=…` is just the
// page: the app moves the token into sessionStorage and drops it from the
// URL. Static files need no token: they hold no data.
func (h *Handler) static() http.Handler {
	return onlyGet(h.files())
}

func onlyGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, service.CodeBadRequest, "method not allowed")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (h *Handler) files() http.Handler {
	if h.cfg.Frontend == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", CSP)
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("The Hermes Desk web app is not built into this binary (run `make frontend`); the API is at /api/.\n"))
		})
	}
	files := http.FileServerFS(h.cfg.Frontend)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", CSP)
		p := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if p == "" || p == "." {
			p = "index.html"
		}
		if _, err := fs.Stat(h.cfg.Frontend, p); err != nil && path.Ext(p) == "" {
			r = r.Clone(r.Context())
			r.URL.Path = "/"
		}
		if p == "index.html" || r.URL.Path == "/" {
			w.Header().Set("Cache-Control", "no-cache")
		}
		files.ServeHTTP(w, r)
	})
}
