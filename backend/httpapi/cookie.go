package httpapi

import (
	"crypto/subtle"
	"net/http"
	"time"
)

// The login link (`/?token=…`) also leaves an HttpOnly, SameSite=Strict
// cookie, so the login holds for the browser profile: a new tab or a
// bookmark works without the link again, and page scripts never read it
// (docs/ARCHITECTURE.md §Serve mode). It is accepted in place of the bearer
// header; the Host and Origin checks in guard still apply first.
const (
	loginCookie    = "hermesdesk_login"
	loginCookieAge = 30 * 24 * time.Hour
)

// rememberLogin sets the cookie when a page load carries the right token.
func (h *Handler) rememberLogin(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Token == "" || r.Method != http.MethodGet {
		return
	}
	tok := r.URL.Query().Get("token")
	if tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(h.cfg.Token)) != 1 {
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name:     loginCookie,
		Value:    tok,
		Path:     "/",
		MaxAge:   int(loginCookieAge / time.Second),
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
	})
}

// cookieAuthorized reports whether the request carries the login cookie.
func (h *Handler) cookieAuthorized(r *http.Request) bool {
	if h.cfg.Token == "" {
		return false
	}
	c, err := r.Cookie(loginCookie)
	return err == nil && c.Value != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(h.cfg.Token)) == 1
}
