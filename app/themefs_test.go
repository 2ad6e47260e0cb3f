package app

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestWithTheme(t *testing.T) {
	page := `<!doctype html><html lang="en"><head></head><body></body></html>`
	base := fstest.MapFS{"index.html": {Data: []byte(page)}, "assets/app.css": {Data: []byte("html{}")}}
	cases := []struct {
		theme, name, want string
	}{
		{ThemeDark, "index.html", `<!doctype html><html data-theme="dark" lang="en"><head></head><body></body></html>`},
		{ThemeLight, "index.html", `<!doctype html><html data-theme="light" lang="en"><head></head><body></body></html>`},
		{ThemeSystem, "index.html", `<!doctype html><html data-theme="system" lang="en"><head></head><body></body></html>`},
		{"", "index.html", page},
		{`dark" onload="x`, "index.html", page}, // only the known themes are ever written
		{ThemeDark, "assets/app.css", "html{}"},
	}
	for _, c := range cases {
		t.Run(c.theme+" "+c.name, func(t *testing.T) {
			b, err := fs.ReadFile(withTheme(base, c.theme), c.name)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != c.want {
				t.Errorf("got %s\nwant %s", b, c.want)
			}
		})
	}
	if _, err := fs.ReadFile(withTheme(base, ThemeDark), "missing.html"); err == nil {
		t.Error("a missing file was found")
	}
}

func TestThemeHTML(t *testing.T) {
	cases := []struct{ in, want string }{
		{`<html>`, `<html data-theme="dark">`},
		{`<html data-theme="light">`, `<html data-theme="light">`},
		{`no tag here`, `no tag here`},
		{`<html`, `<html`},
	}
	for _, c := range cases {
		if got := string(themeHTML([]byte(c.in), ThemeDark)); got != c.want {
			t.Errorf("themeHTML(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
