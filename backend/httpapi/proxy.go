package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/peercred"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// ErrForeignServer: the local API socket is served by another user's
// process; nothing is sent to it.
var ErrForeignServer = errors.New("the local Hermes Desk socket belongs to another user; refusing to talk to it")

// SocketPath is the local API socket of a data dir's supervisor.
func SocketPath(dataDir string) string {
	return filepath.Join(paths.RuntimeDir(dataDir), SocketName)
}

// NewProxy is `serve` beside a running app: it serves the frontend and
// forwards /api/ to the supervisor's local socket, behind the same guard
// (token, Host, Origin) as the direct handler. SSE streams pass through
// unbuffered. Its Do and Doorbells work too, so a desktop app started
// while `serve` owns the data dir can run as this proxy's client.
func NewProxy(socket string, cfg Config) *Handler {
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = defaultHeartbeat
	}
	remote := NewLocalClient(socket)
	h := &Handler{cfg: cfg, log: cfg.Log, mux: http.NewServeMux(), remote: remote}
	if h.log == nil {
		h.log = defaultLog()
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme, pr.Out.URL.Host, pr.Out.Host = "http", "hermesdesk", "hermesdesk"
			pr.Out.Header.Del("Authorization") // the socket trusts by uid
			pr.Out.Header.Del("Cookie")
		},
		Transport:     unixTransport(socket),
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			// The request's own fault (a body over the limit, or one too
			// slow to arrive) is said as such, not as the app being down.
			var tooBig *http.MaxBytesError
			switch {
			case errors.As(err, &tooBig):
				w.Header().Set("Connection", "close")
				writeError(w, http.StatusRequestEntityTooLarge, service.CodeTooLarge, "request body is larger than 1 MiB")
				return
			case isTimeout(err) && r.Context().Err() == nil:
				w.Header().Set("Connection", "close")
				writeError(w, http.StatusRequestTimeout, service.CodeBadRequest, "the request body took too long to arrive")
				return
			}
			h.log.Warn("httpapi: proxy to the local API failed", "err", err)
			writeError(w, http.StatusBadGateway, service.CodeUnavailable, "Hermes Desk is not answering; is it still running?")
		},
	}
	h.mux.Handle("/api/", http.MaxBytesHandler(rp, MaxBodyBytes))
	// An upload is a file, not JSON: the core applies its own limit
	// (20 MiB) and says so; the 1 MiB cap would refuse every real file.
	h.mux.Handle("POST /api/uploads", rp)
	h.mux.Handle("/", h.static())
	h.root = h.guard(h.mux)
	return h
}

// unixTransport dials the local API socket and talks only to a server of
// this user (SO_PEERCRED): a message, its answer or an approval must never
// go to whoever took the socket's place (docs/ARCHITECTURE.md §Security).
func unixTransport(socket string) *http.Transport {
	return &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			c, err := peercred.Dial(ctx, socket)
			if peercred.Refused(err) {
				return nil, fmt.Errorf("%w: %w", ErrForeignServer, err)
			}
			return c, err
		},
		MaxIdleConns:      16,
		DisableKeepAlives: false,
	}
}
