package httpapi_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// serve --frontend DIR serves DIR's files only: symlinks that lead out of
// it are not followed (static files need no token).
func TestDirFrontendStaysInside(t *testing.T) {
	outside := t.TempDir()
	secret := "SECRET-TOKEN-0123456789"
	os.WriteFile(filepath.Join(outside, "serve.token"), []byte(secret), 0o600)
	os.MkdirAll(filepath.Join(outside, "d"), 0o755)
	os.WriteFile(filepath.Join(outside, "d", "x.js"), []byte(secret), 0o644)

	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><title>app</title>"), 0o644)
	os.MkdirAll(filepath.Join(dir, "assets"), 0o755)
	os.WriteFile(filepath.Join(dir, "assets", "app.js"), []byte("console.log(1)"), 0o644)
	os.Symlink("app.js", filepath.Join(dir, "assets", "inside.js"))
	os.Symlink(filepath.Join(outside, "serve.token"), filepath.Join(dir, "token.txt"))
	os.Symlink(filepath.Join(outside, "d"), filepath.Join(dir, "linked"))
	os.Symlink("../"+filepath.Base(outside)+"/serve.token", filepath.Join(dir, "rel.txt"))

	fe, err := httpapi.DirFrontend(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, httpapi.Config{Frontend: fe})
	get := func(p string) (int, string) {
		res, err := http.Get(e.srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, p := range []string{"/token.txt", "/linked/x.js", "/rel.txt", "/../" + filepath.Base(outside) + "/serve.token"} {
		if code, body := get(p); strings.Contains(body, secret) {
			t.Errorf("%s: served a file outside the folder (%d)", p, code)
		}
	}
	if code, body := get("/assets/inside.js"); code != 200 || body != "console.log(1)" {
		t.Errorf("a symlink inside the folder: %d %q", code, body)
	}
	if code, body := get("/"); code != 200 || !strings.Contains(body, "<title>app</title>") {
		t.Errorf("index: %d %q", code, body)
	}
}
