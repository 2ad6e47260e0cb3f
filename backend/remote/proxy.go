package remote

import (
	"errors"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"path"
	"strings"
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Lookup finds a host's link by its id (backend/hosts' Manager).
type Lookup func(host string) (Link, bool)

// Proxy answers /api/hosts/{host}/REST with the host's own /api/REST
// (docs/ARCHITECTURE.md §Remote cores): one API for every host, its
// routes, validation and answers the host core's own. It is mounted
// inside the local API (httpapi.Config.Hosts), so the local guard (token,
// Host, Origin, peer uid) applies first; the host's socket is trusted by
// uid like the local one. Streams (SSE) pass through unbuffered.
type Proxy struct {
	lookup Lookup
	log    *slog.Logger

	mu      sync.Mutex
	proxies map[string]*httputil.ReverseProxy // by socket path
}

// NewProxy returns the /api/hosts/{host}/ handler over lookup.
func NewProxy(lookup Lookup, log *slog.Logger) *Proxy {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Proxy{lookup: lookup, log: log, proxies: map[string]*httputil.ReverseProxy{}}
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.PathValue("host")
	link, ok := p.lookup(host)
	if !ok {
		httpapi.WriteError(w, http.StatusNotFound, service.CodeNotFound, "There is no host named "+host+".")
		return
	}
	rest, ok := hostPath(r.URL.Path, host)
	if !ok {
		httpapi.WriteError(w, http.StatusNotFound, service.CodeNotFound, "Only the API is served for a host.")
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path, r2.URL.RawPath = rest, ""
	p.proxyFor(host, link.Socket()).ServeHTTP(w, r2)
}

// hostPath maps /api/hosts/{host}/REST to /api/REST; a REST that would
// leave /api/ (dot segments) is refused: only the host's API is reached.
func hostPath(p, host string) (string, bool) {
	prefix := "/api/hosts/" + host + "/"
	rest, ok := strings.CutPrefix(p, prefix)
	if !ok || rest == "" {
		return "", false
	}
	out := path.Clean("/api/" + rest)
	if !strings.HasPrefix(out, "/api/") {
		return "", false
	}
	if strings.HasSuffix(rest, "/") {
		out += "/"
	}
	return out, true
}

func (p *Proxy) proxyFor(host, socket string) *httputil.ReverseProxy {
	p.mu.Lock()
	defer p.mu.Unlock()
	if rp := p.proxies[socket]; rp != nil {
		return rp
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme, pr.Out.URL.Host, pr.Out.Host = "http", "hermesdesk", "hermesdesk"
			pr.Out.Header.Del("Authorization") // the host's socket trusts by uid
			pr.Out.Header.Del("Cookie")
		},
		Transport:     httpapi.SocketTransport(socket),
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			// The request's own fault is said as such, not as the host
			// being away.
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				w.Header().Set("Connection", "close")
				httpapi.WriteError(w, http.StatusRequestEntityTooLarge, service.CodeTooLarge, "request body is larger than 1 MiB")
				return
			}
			p.log.Warn("remote: the host's core did not answer", "host", host, "path", r.URL.Path, "err", err)
			httpapi.WriteError(w, http.StatusBadGateway, service.CodeUnavailable,
				"The host "+host+" cannot be reached right now; its runs go on there and show here once it is back.")
		},
	}
	p.proxies[socket] = rp
	return rp
}
