package httpapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"time"
)

// The login link (`/?token=…`) also leaves an HttpOnly, SameSite=Strict
// cookie, so the login holds for the browser profile: a new tab or a
// bookmark works without the link again, and page scripts never read it
// (docs/ARCHITECTURE.md §Serve mode). It is accepted in place of the bearer
// header; the Host and Origin checks in guard still apply first.
//
// The cookie holds a login id derived from the token (loginID), never the
// token itself, and both the link and the cookie are checked against the
// token current at the time of the request (currentToken): deleting or
// replacing serve.token logs every browser out (docs/ARCHITECTURE.md
// §Security).
const (
	loginCookie    = "hermesdesk_login"
	loginCookieAge = 30 * 24 * time.Hour
)

// loginID is the cookie's value for a token: an HMAC keyed by the token, so
// it names one token without revealing it, and any other token (after a
// revocation) makes every earlier cookie worthless.
func loginID(token string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("hermesdesk login cookie v1"))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// rememberLogin sets the cookie when a page load carries the current token.
func (h *Handler) rememberLogin(w http.ResponseWriter, r *http.Request) {
	token := h.currentToken()
	if token == "" || r.Method != http.MethodGet {
		return
	}
	tok := r.URL.Query().Get("token")
	if tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(token)) != 1 {
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name:     loginCookie,
		Value:    loginID(token),
		Path:     "/",
		MaxAge:   int(loginCookieAge / time.Second),
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
	})
}

// cookieAuthorized reports whether the request carries the login cookie of
// the current token.
func (h *Handler) cookieAuthorized(r *http.Request) bool {
	token := h.currentToken()
	if token == "" {
		return false
	}
	c, err := r.Cookie(loginCookie)
	return err == nil && c.Value != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(loginID(token))) == 1
}
