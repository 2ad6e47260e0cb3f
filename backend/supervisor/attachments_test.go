package supervisor_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// An attached image and text file go from the start request through the
// shim and the ACP adapter to the demo agent, which says what it got.
func TestAttachmentsReachTheAgent(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	img := filepath.Join(dir, "shot.png")
	note := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(img, []byte("\x89PNG\r\n\x1a\nrest"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(note, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := e.sup.Start(context.Background(), run.StartRequest{
		SessionID: e.session.ID, Message: "look at these", ClientRequestID: "c-attach",
		Attachments: []string{img, note},
	})
	if err != nil {
		t.Fatal(err)
	}
	evs := e.watchAll(e.sup, res.RunID, 0)
	if d := doneOf(t, evs); d.Status != run.StatusCompleted {
		t.Fatalf("run: %+v", d)
	}
	remembers(t, evs, "Received 2 attachments: shot.png (image/png, 12 B), notes.txt (text/plain, 5 B)")
}
