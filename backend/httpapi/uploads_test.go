package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

func uploadEnv(t *testing.T) (*env, string) {
	dir := filepath.Join(t.TempDir(), "uploads")
	return newEnvWith(t, httpapi.Config{}, service.Options{Uploads: dir}, nil), dir
}

// stored lists every file under the uploads folder.
func stored(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestUploadStoresThePrivateFile(t *testing.T) {
	e, dir := uploadEnv(t)
	body := strings.Repeat("x", 2*httpapi.MaxBodyBytes) // past the JSON limit: uploads have their own
	code, res := e.do(t, "POST", "/api/uploads?name=../../shot%201.png", body, map[string]string{"Content-Type": "image/png"})
	if code != http.StatusCreated {
		t.Fatalf("upload: %d %s", code, res)
	}
	var up service.Upload
	if err := json.Unmarshal([]byte(res), &up); err != nil {
		t.Fatal(err)
	}
	if up.Name != "shot 1.png" || up.Size != int64(len(body)) || filepath.Base(up.Path) != "shot 1.png" {
		t.Fatalf("upload answer: %+v", up)
	}
	if rel, err := filepath.Rel(dir, up.Path); err != nil || strings.HasPrefix(rel, "..") {
		t.Fatalf("stored outside the uploads folder: %s", up.Path)
	}
	st, err := os.Stat(up.Path)
	if err != nil || st.Mode().Perm() != 0o600 || st.Size() != int64(len(body)) {
		t.Fatalf("stored file: %v %v", st, err)
	}
}

func TestUploadRefusals(t *testing.T) {
	e, dir := uploadEnv(t)
	cases := []struct {
		name   string
		path   string
		body   string
		hdr    map[string]string
		status int
		code   string
		says   string
	}{
		{"no token", "/api/uploads?name=a.txt", "hi", map[string]string{"Authorization": ""}, 401, "unauthorized", "token"},
		{"wrong token", "/api/uploads?name=a.txt", "hi", map[string]string{"Authorization": "Bearer nope"}, 401, "unauthorized", "token"},
		{"cross-origin", "/api/uploads?name=a.txt", "hi", map[string]string{"Origin": "https://evil.example"}, 403, "forbidden", "cross-origin"},
		{"no name", "/api/uploads", "hi", nil, 400, "bad_request", "name"},
		{"dot-dot name", "/api/uploads?name=..", "hi", nil, 400, "bad_request", "name"},
		{"empty file", "/api/uploads?name=a.txt", "", nil, 400, "bad_request", "empty"},
		{"GET", "/api/uploads?name=a.txt", "", nil, 404, "not_found", "no such"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := "POST"
			if c.name == "GET" {
				method = "GET"
			}
			code, res := e.do(t, method, c.path, c.body, c.hdr)
			if code != c.status {
				t.Fatalf("status %d, want %d: %s", code, c.status, res)
			}
			if c.code != "" {
				if got := errCode(t, res); got != c.code || !strings.Contains(res, c.says) {
					t.Fatalf("error %s %s, want %s saying %q", got, res, c.code, c.says)
				}
			}
		})
	}
	if files := stored(t, dir); len(files) != 0 {
		t.Fatalf("refused uploads left files: %v", files)
	}
}

// A 200 MB file is refused from its declared length without being read,
// and a body that turns out larger than declared (chunked) is cut at the
// limit; neither leaves anything behind.
func TestUploadTooLarge(t *testing.T) {
	e, dir := uploadEnv(t)
	t.Run("declared 200 MB", func(t *testing.T) {
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/uploads?name=big.bin", io.LimitReader(zeros{}, 200<<20))
		req.ContentLength = 200 << 20
		req.Header.Set("Authorization", "Bearer "+testToken)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			// The server may close before the client finished sending.
			t.Logf("client: %v", err)
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "larger than 20 MiB") {
			t.Fatalf("%d %s", res.StatusCode, b)
		}
	})
	t.Run("chunked past the limit", func(t *testing.T) {
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/uploads?name=big.bin", io.NopCloser(io.LimitReader(zeros{}, service.MaxAttachmentBytes+10)))
		req.ContentLength = -1
		req.Header.Set("Authorization", "Bearer "+testToken)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Logf("client: %v", err)
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusRequestEntityTooLarge || errCode(t, string(b)) != "too_large" {
			t.Fatalf("%d %s", res.StatusCode, b)
		}
	})
	if files := stored(t, dir); len(files) != 0 {
		t.Fatalf("refused uploads left files: %v", files)
	}
}

// Without an uploads folder (a service not over a data dir) the route
// says so plainly.
func TestUploadUnavailable(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	code, res := e.do(t, "POST", "/api/uploads?name=a.txt", "hi", nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(res, "attach the file by its path") {
		t.Fatalf("%d %s", code, res)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// serve beside a running app (proxy mode) forwards an upload past the
// JSON body limit to the core, which stores it; over the core's limit the
// core's plain refusal comes back.
func TestProxyForwardsUploads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "uploads")
	e := newEnvWith(t, httpapi.Config{}, service.Options{Uploads: dir}, nil)
	proxy := proxyTo(t, e.serveLocal(t))

	post := func(body io.Reader, n int64) (int, string) {
		req, _ := http.NewRequest("POST", proxy.URL+"/api/uploads?name=big.txt", body)
		req.ContentLength = n
		req.Header.Set("Authorization", "Bearer "+testToken)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	n := int64(3 << 20)
	if code, res := post(io.LimitReader(zeros{}, n), n); code != http.StatusCreated || !strings.Contains(res, `"size":3145728`) {
		t.Fatalf("3 MiB through the proxy: %d %s", code, res)
	}
	n = service.MaxAttachmentBytes + 1
	if code, res := post(io.LimitReader(zeros{}, n), n); code != http.StatusRequestEntityTooLarge || !strings.Contains(res, "larger than 20 MiB") {
		t.Fatalf("over the limit through the proxy: %d %s", code, res)
	}
	if files := stored(t, dir); len(files) != 1 {
		t.Fatalf("stored %v, want the one accepted file", files)
	}
}
