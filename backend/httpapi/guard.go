package httpapi

import (
	"context"
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

type ctxKey int

const trustedKey ctxKey = iota

// WithTrusted marks a request's context as coming from a trusted local
// peer (the unix socket after its uid check, or the desktop app
// in-process): no token, Host or Origin checks apply.
func WithTrusted(ctx context.Context) context.Context {
	return context.WithValue(ctx, trustedKey, true)
}

func isTrusted(r *http.Request) bool {
	v, _ := r.Context().Value(trustedKey).(bool)
	return v
}

// guard enforces, for untrusted (TCP) requests: an allowed Host (DNS
// rebinding), a same-origin browser context (CSRF), and the bearer token
// on every API route but plain health.
func (h *Handler) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		// The login link carries the token in its URL: never leak it.
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		if isTrusted(r) {
			next.ServeHTTP(w, r)
			return
		}
		if !h.hostAllowed(r.Host) {
			h.log.Warn("httpapi: refused request for a foreign Host", "host", r.Host, "remote", r.RemoteAddr)
			refuse(w, http.StatusForbidden, service.CodeForbidden, "this server does not answer for that host name")
			return
		}
		api := strings.HasPrefix(r.URL.Path, "/api/")
		if api && !sameOrigin(r) {
			h.log.Warn("httpapi: refused cross-origin request", "origin", r.Header.Get("Origin"), "remote", r.RemoteAddr)
			refuse(w, http.StatusForbidden, service.CodeForbidden, "cross-origin requests are not allowed")
			return
		}
		public := !api || (r.URL.Path == "/api/health" && r.Method == http.MethodGet && !isDeepHealth(r))
		if !api {
			h.rememberLogin(w, r)
		}
		if !public && !h.authorized(r) && !h.cookieAuthorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="hermesdesk"`)
			refuse(w, http.StatusUnauthorized, service.CodeUnauthorized, "missing or wrong token; open the login link `hermesdesk serve` printed")
			return
		}
		next.ServeHTTP(w, h.withBodyDeadline(w, r))
	})
}

func (h *Handler) authorized(r *http.Request) bool {
	token := h.currentToken()
	if token == "" {
		return false
	}
	auth := r.Header.Get("Authorization")
	const prefix = "Bearer "
	if len(auth) <= len(prefix) || !strings.EqualFold(auth[:len(prefix)], prefix) {
		return false
	}
	got := strings.TrimSpace(auth[len(prefix):])
	return subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// hostAllowed accepts loopback names, IP literals (a rebinding attack
// needs a DNS name) and the configured names.
func (h *Handler) hostAllowed(hostport string) bool {
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if host == "" {
		return false
	}
	if strings.EqualFold(host, "localhost") || net.ParseIP(host) != nil {
		return true
	}
	for _, a := range h.cfg.AllowedHosts {
		if strings.EqualFold(host, a) {
			return true
		}
	}
	return false
}

// sameOrigin refuses browser requests from another origin: an Origin header
// must name this very host (scheme http/https), and Fetch metadata must not
// say cross-site or same-site (another port of localhost is same-site but
// another origin). Non-browser clients send neither and pass.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // includes "null" (sandboxed frames, file: pages)
	}
	return strings.EqualFold(u.Host, r.Host)
}
