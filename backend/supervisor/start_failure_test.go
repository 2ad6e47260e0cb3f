package supervisor_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// A run whose shim cannot be prepared tells the person so in words, not
// with an internal error that names files of the data dir (docs/ARCHITECTURE.md §Events:
// safe error messages; details go to the log).
func TestStartFailureMessageIsSafe(t *testing.T) {
	var secretPath string
	e := newEnv(t, func(c *supervisor.Config) {
		secretPath = filepath.Join(c.DataDir, "private", "settings.db")
		c.AgentConfig = func(context.Context, string) (adapter.Config, error) {
			return adapter.Config{}, fmt.Errorf("open %s: permission denied", secretPath)
		}
	})
	res := e.start(e.session.ID, "hello")
	r := e.waitTerminal(res.RunID)
	evs := e.events(res.RunID)
	checkSeqs(t, evs, 0)
	d := doneOf(t, evs)
	if r.Status != run.StatusFailed || !strings.Contains(d.Error, "could not start") {
		t.Fatalf("run %s: %q", r.Status, d.Error)
	}
	for _, s := range []string{d.Error, r.Error, firstOf[run.ErrorInfo](t, evs, run.EventError).Message} {
		if strings.Contains(s, e.dataDir) {
			t.Fatalf("the message shown to people names a private path: %q", s)
		}
	}
}
