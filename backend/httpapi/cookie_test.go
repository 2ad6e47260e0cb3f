package httpapi_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// The login link leaves a cookie that keeps the browser logged in; only the
// right token sets it, it is out of reach of page scripts and cross-site
// requests, and a wrong one does not authorize.
func TestLoginLinkSetsCookie(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	get := func(c *http.Client, path string, hdr map[string]string) (int, *http.Response) {
		t.Helper()
		req, _ := http.NewRequest("GET", e.srv.URL+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, res
	}

	cases := []struct {
		name, link string
		cookie     bool
	}{
		{"the right token", "/?token=" + testToken, true},
		{"a wrong token", "/?token=nope", false},
		{"no token", "/", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			jar, _ := cookiejar.New(nil)
			client := &http.Client{Jar: jar}
			_, res := get(client, c.link, nil)
			var set *http.Cookie
			for _, k := range res.Cookies() {
				if k.Name == "hermesdesk_login" {
					set = k
				}
			}
			if (set != nil) != c.cookie {
				t.Fatalf("cookie set = %v, want %v", set != nil, c.cookie)
			}
			// A later request without the bearer header: a "new tab".
			status, _ := get(client, "/api/projects", nil)
			want := http.StatusUnauthorized
			if c.cookie {
				want = http.StatusOK
				if !set.HttpOnly || set.SameSite != http.SameSiteStrictMode || set.Path != "/" || set.MaxAge <= 0 {
					t.Fatalf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/, lasting", set)
				}
			}
			if status != want {
				t.Fatalf("API with the cookie only: %d, want %d", status, want)
			}
			if c.cookie {
				// Cross-site pages cannot ride on it (the Origin checks stay).
				if s, _ := get(client, "/api/projects", map[string]string{"Sec-Fetch-Site": "cross-site"}); s != http.StatusForbidden {
					t.Fatalf("cross-site with the cookie: %d, want 403", s)
				}
			}
		})
	}
	// A forged cookie does not authorize.
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/projects", nil)
	req.AddCookie(&http.Cookie{Name: "hermesdesk_login", Value: "forged"})
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("forged cookie: %d, want 401", res.StatusCode)
	}
}

// Revoking the token (serve.token deleted or replaced: SetToken) logs every
// browser out: the old cookie no longer answers, the old login link sets
// nothing, and the new link sets a cookie that works (issue 21 item 3).
func TestTokenChangeRevokesLoginCookie(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	get := func(c *http.Client, path string) (int, []*http.Cookie) {
		t.Helper()
		res, err := c.Get(e.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, res.Cookies()
	}
	loginSet := func(cs []*http.Cookie) bool {
		for _, c := range cs {
			if c.Name == "hermesdesk_login" {
				return true
			}
		}
		return false
	}
	if _, cs := get(browser, "/?token="+testToken); !loginSet(cs) {
		t.Fatal("the login link set no cookie")
	}
	if s, _ := get(browser, "/api/settings"); s != http.StatusOK {
		t.Fatalf("with the cookie before the revocation: %d, want 200", s)
	}
	oldCookies := jar.Cookies(mustURL(t, e.srv.URL))

	const newToken = "new-token-abcdefabcdefabcdefabcdefabcdef"
	e.h.SetToken(newToken)

	if s, _ := get(browser, "/api/settings"); s != http.StatusUnauthorized {
		t.Fatalf("the old cookie after the revocation: %d, want 401", s)
	}
	fresh, _ := cookiejar.New(nil)
	other := &http.Client{Jar: fresh}
	if _, cs := get(other, "/?token="+testToken); loginSet(cs) {
		t.Fatal("the revoked login link still sets a cookie")
	}
	if s, _ := get(other, "/api/settings"); s != http.StatusUnauthorized {
		t.Fatalf("after the revoked login link: %d, want 401", s)
	}
	if _, cs := get(other, "/?token="+newToken); !loginSet(cs) {
		t.Fatal("the new login link set no cookie")
	}
	if s, _ := get(other, "/api/settings"); s != http.StatusOK {
		t.Fatalf("with the new cookie: %d, want 200", s)
	}
	// The old browser's cookie stays refused even beside the new one's.
	if s, _ := get(browser, "/api/settings"); s != http.StatusUnauthorized {
		t.Fatalf("the old cookie still: %d, want 401", s)
	}
	// A cookie is not a password: it does not hold the token.
	for _, c := range oldCookies {
		if c.Value == testToken {
			t.Fatal("the cookie holds the token itself")
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
