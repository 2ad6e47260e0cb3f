package app

import "testing"

func TestAllowNavigation(t *testing.T) {
	const app = "wails://wails/"
	cases := []struct {
		name, target, current string
		want                  bool
	}{
		{"the first load", app, "", true},
		{"the first load after about:blank", app, "about:blank", true},
		{"a reload", app, app, true},
		{"an in-app route", "wails://wails/index.html#/s/1", app, true},
		{"the dev server's own pages", "http://localhost:34115/x", "http://localhost:34115/", true},
		{"a dropped file", "file:///tmp/page.html", app, false},
		{"a web page", "https://example.com/", app, false},
		{"another host, same scheme", "wails://evil/", app, false},
		{"another port", "http://localhost:1/", "http://localhost:34115/", false},
		{"a data URL", "data:text/html,<script>alert(1)</script>", app, false},
		{"javascript:", "javascript:alert(1)", app, false},
		{"about:blank after the app", "about:blank", app, false},
		{"garbage", "%zz://", app, false},
	}
	for _, c := range cases {
		if got := allowNavigation(c.target, c.current); got != c.want {
			t.Errorf("%s: allowNavigation(%q, %q) = %v, want %v", c.name, c.target, c.current, got, c.want)
		}
	}
}
