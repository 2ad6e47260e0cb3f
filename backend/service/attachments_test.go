package service_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Attachments are checked before anything is recorded: each refusal says
// which file and why, in plain words.
func TestStartRunChecksAttachments(t *testing.T) {
	s, _, ses := setup(t)
	dir := t.TempDir()
	ok := filepath.Join(dir, "notes.txt")
	os.WriteFile(ok, []byte("hi"), 0o600)
	big := filepath.Join(dir, "video.bin")
	f, _ := os.Create(big)
	f.Truncate(200 << 20) // sparse: 200 MB without using the disk
	f.Close()
	many := make([]string, service.MaxAttachments+1)
	for i := range many {
		many[i] = ok
	}
	cases := []struct {
		name  string
		paths []string
		code  service.Code
		says  string
	}{
		{"a readable file", []string{ok}, "", ""},
		{"missing", []string{filepath.Join(dir, "gone.txt")}, service.CodeBadRequest, "cannot attach gone.txt: no such file"},
		{"relative", []string{"notes.txt"}, service.CodeBadRequest, "full path"},
		{"a folder", []string{dir}, service.CodeBadRequest, "it is not a file"},
		{"200 MB", []string{big}, service.CodeTooLarge, "video.bin is 200 MiB; an attachment can be at most 20 MiB"},
		{"too many", many, service.CodeBadRequest, "at most 10 attachments"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.StartRun(context.Background(), run.StartRequest{SessionID: ses.ID, Message: "look", Attachments: c.paths, ClientRequestID: "req_att_" + strings.Repeat("x", i+1)})
			if c.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if service.CodeOf(err) != c.code || !strings.Contains(service.MessageOf(err), c.says) {
				t.Fatalf("err = %v (%s), want %s saying %q", err, service.CodeOf(err), c.code, c.says)
			}
		})
	}
}
