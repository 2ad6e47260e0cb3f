package supervisor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// A run whose turn comes after its project's folder went away (a follow-up
// queued earlier, a schedule) fails saying the folder is missing, without
// starting a shim — not with the agent's program "not installed … no such
// file or directory" (issue 23.12).
func TestRunInAMissingFolderSaysSo(t *testing.T) {
	e := newEnv(t)
	if err := os.RemoveAll(filepath.Join(e.dataDir, "workspace")); err != nil {
		t.Fatal(err)
	}
	r := e.waitTerminal(e.start(e.session.ID, "hello").RunID)
	if r.Status != run.StatusFailed || !strings.Contains(r.Error, "folder is missing") {
		t.Fatalf("run ended %s with %q, want failed saying the folder is missing", r.Status, r.Error)
	}
	if _, err := control.ReadBootstrap(e.dataDir, r.ID); err == nil {
		t.Fatal("a shim started in a missing folder")
	}
}
