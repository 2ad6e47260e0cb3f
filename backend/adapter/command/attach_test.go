package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// A command line takes text only: the attached files reach it as a path
// mention after the message, and an unreadable one fails the turn in
// plain words without running the command.
func TestAttachmentsAreNamedByPath(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(p, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := start(t, "sh", "-c", `printf '%s' "$1"`, "sh", Placeholder)
	rec := agenttest.NewRecorder()
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "read it", Attachments: []string{p}}, rec)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got, want := rec.Text(), "read it\n\nAttached files:\n- "+p+" (text/plain, 5 B)"; got != want {
		t.Fatalf("the command got %q, want %q", got, want)
	}
	rec = agenttest.NewRecorder()
	res = c.Turn(context.Background(), adapter.TurnRequest{Message: "x", Attachments: []string{filepath.Join(dir, "gone.txt")}}, rec)
	if res.Err == nil || !strings.Contains(res.Err.Error(), "gone.txt cannot be read") || rec.Text() != "" {
		t.Fatalf("a missing file: %v, output %q", res.Err, rec.Text())
	}
}
