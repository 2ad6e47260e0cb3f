package app

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

// A file dropped or pasted in the window is stored through the API and
// comes back as a path to attach; bad data and an oversized file are
// refused in plain words and store nothing.
func TestDesktopUpload(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "uploads")
	m := servicetest.NewMem()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(m, m, m, service.Options{Uploads: dir, Log: quiet})
	d := &Desktop{app: &App{api: serveLocal(t, httpapi.New(svc, httpapi.Config{Log: quiet}))}}

	r := d.Upload("shot.png", base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n")), "")
	var up service.Upload
	if r.Status != 201 || json.Unmarshal([]byte(r.Body), &up) != nil || up.Size != 8 {
		t.Fatalf("upload: %+v", r)
	}
	if b, err := os.ReadFile(up.Path); err != nil || string(b) != "\x89PNG\r\n\x1a\n" {
		t.Fatalf("stored %q, %v", b, err)
	}
	cases := []struct {
		name, data string
		status     int
		says       string
	}{
		{"not base64", "%%%", 400, "did not arrive intact"},
		{"too large", strings.Repeat("A", (service.MaxAttachmentBytes/3+2)*4), 413, "larger than 20 MiB"},
	}
	for _, c := range cases {
		if r := d.Upload("x.bin", c.data, ""); r.Status != c.status || !strings.Contains(r.Body, c.says) {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("uploads folder holds %d entries, want the one accepted", len(entries))
	}
}

// A file dropped or pasted into a host's session goes to that host's core
// (POST /api/hosts/{host}/uploads, through the proxy), whole: the agent
// there reads the path the host answers. Nothing is stored here.
func TestDesktopUploadToAHost(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "uploads")
	m := servicetest.NewMem()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(m, m, m, service.Options{Uploads: dir, Log: quiet})
	type got struct {
		method, path, name string
		size               int
	}
	var asked []got
	host := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		asked = append(asked, got{r.Method, r.URL.Path, r.URL.Query().Get("name"), len(b)})
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(service.Upload{Path: "/home/me/.local/share/hermesdesk/uploads/" + r.URL.Query().Get("name"), Name: r.URL.Query().Get("name"), Size: int64(len(b))})
	})
	d := &Desktop{app: &App{api: serveLocal(t, httpapi.New(svc, httpapi.Config{Log: quiet, Hosts: host}))}}

	big := make([]byte, 2<<20) // past the proxy's 1 MiB for other bodies
	r := d.Upload("trace.bin", base64.StdEncoding.EncodeToString(big), "host_1a2b")
	var up service.Upload
	if r.Status != 201 || json.Unmarshal([]byte(r.Body), &up) != nil || up.Path != "/home/me/.local/share/hermesdesk/uploads/trace.bin" {
		t.Fatalf("upload to the host: %+v", r)
	}
	want := []got{{"POST", "/api/hosts/host_1a2b/uploads", "trace.bin", 2 << 20}}
	if len(asked) != 1 || asked[0] != want[0] {
		t.Fatalf("the host was asked %+v, want %+v", asked, want)
	}

	// A drop gives a path of this computer: its bytes go to the host.
	src := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(src, []byte("# notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := d.UploadFile(src, "host_1a2b"); r.Status != 201 || !strings.Contains(r.Body, "/uploads/notes.md") {
		t.Fatalf("dropped file to the host: %+v", r)
	}
	if w := (got{"POST", "/api/hosts/host_1a2b/uploads", "notes.md", 8}); len(asked) != 2 || asked[1] != w {
		t.Fatalf("the host was asked %+v, want then %+v", asked, w)
	}
	for _, bad := range []string{filepath.Dir(src), filepath.Join(filepath.Dir(src), "gone.txt")} {
		if r := d.UploadFile(bad, "host_1a2b"); r.Status != 400 || !strings.Contains(r.Body, "attach files only") {
			t.Errorf("%s: %+v", bad, r)
		}
	}
	if len(asked) != 2 {
		t.Fatalf("the host was asked for what is not a file: %+v", asked)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("stored here too: %d entries", len(entries))
	}
}
