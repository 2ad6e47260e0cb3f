package supervisor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// A shim that cannot start (here: a program that is not hermesdesk at all)
// fails its run with a readable reason; the supervisor carries on.
func TestShimThatCannotStart(t *testing.T) {
	e := newEnv(t, func(c *supervisor.Config) { c.Executable = "/bin/true" })
	res := e.start(e.session.ID, "hello")
	r := e.waitTerminal(res.RunID)
	if r.Status != run.StatusFailed || !strings.Contains(r.Error, "could not start") {
		t.Fatalf("run %s: %q", r.Status, r.Error)
	}
	evs := e.events(res.RunID)
	checkSeqs(t, evs, 0)
	doneOf(t, evs)
}

// Shims run from a per-version copy of the binary in <datadir>/bin, so
// replacing the installed binary does not touch live runs.
func TestShimsRunFromVersionedCopy(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario slow")
	e.waitFor("the shim", 30*time.Second, func() bool {
		_, err := control.ReadBootstrap(e.dataDir, res.RunID)
		return err == nil
	})
	b, _ := control.ReadBootstrap(e.dataDir, res.RunID)
	exe, err := os.Readlink(filepath.Join("/proc", itoa(b.Pid), "exe"))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	if filepath.Dir(exe) != filepath.Join(e.dataDir, "bin") {
		t.Fatalf("shim runs %s, want a copy in %s", exe, filepath.Join(e.dataDir, "bin"))
	}
	e.sup.Cancel(t.Context(), res.RunID)
	e.waitTerminal(res.RunID)
}
