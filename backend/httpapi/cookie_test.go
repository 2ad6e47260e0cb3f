package httpapi_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
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
