package app

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
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

	r := d.Upload("shot.png", base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n")))
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
		if r := d.Upload("x.bin", c.data); r.Status != c.status || !strings.Contains(r.Body, c.says) {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("uploads folder holds %d entries, want the one accepted", len(entries))
	}
}
