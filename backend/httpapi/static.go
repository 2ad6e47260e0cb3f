package httpapi

import (
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// The Content-Security-Policy has one source, frontend/src/csp.ts: the
// build writes it into index.html's meta tag, and pageCSP serves that same
// policy as a header, adding only what a meta tag cannot say (framing).
// Agent output is rendered as sanitized Markdown; the CSP is the second
// wall (docs/ARCHITECTURE.md §Security).
const (
	headerOnlyCSP = "frame-ancestors 'none'"
	// noPageCSP answers when no web app is built in: nothing may load.
	noPageCSP = "default-src 'none'; " + headerOnlyCSP
)

var cspMeta = regexp.MustCompile(`<meta[^>]+http-equiv="Content-Security-Policy"[^>]+content="([^"]+)"`)

// pageCSP is the built page's own policy plus headerOnlyCSP; a bundle
// without the meta tag (a broken build) gets noPageCSP, never a weaker one.
func pageCSP(fsys fs.FS) string {
	if fsys == nil {
		return noPageCSP
	}
	b, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		return noPageCSP
	}
	m := cspMeta.FindSubmatch(b)
	if m == nil {
		return noPageCSP
	}
	return html.UnescapeString(string(m[1])) + "; " + headerOnlyCSP
}

// DirFrontend is the frontend of `serve --frontend DIR`: files of DIR
// only. Static files are served without a token, so a symlink that leads
// out of DIR (to /etc/passwd, to a data dir's serve.token) is refused, as
// is "..": os.Root resolves every path inside DIR (docs/ARCHITECTURE.md
// §Security, serve mode).
func DirFrontend(dir string) (fs.FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("--frontend %s: %w", dir, err)
	}
	return root.FS(), nil
}

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
	csp := pageCSP(h.cfg.Frontend)
	if h.cfg.Frontend == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", csp)
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("The Hermes Desk web app is not built into this binary (run `make frontend`); the API is at /api/.\n"))
		})
	}
	files := http.FileServerFS(h.cfg.Frontend)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
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
