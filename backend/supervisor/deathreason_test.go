package supervisor_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/datadir"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// flagCheck is a data folder check that fails once set.
type flagCheck struct{ err *atomic.Pointer[error] }

func (c flagCheck) Check() error {
	if p := c.err.Load(); p != nil {
		return *p
	}
	return nil
}

// A shim that died because its journal failed or its disk filled leaves
// its run ended with that cause, not "The run's process ended
// unexpectedly" (which sent people to the shim's log).
func TestDeadShimsRunSaysWhy(t *testing.T) {
	tests := []struct {
		name string
		// before runs just before the shim is killed.
		before func(t *testing.T, e *env, runID string, fail *atomic.Pointer[error])
		want   string
	}{
		{"the shim's exit note", func(t *testing.T, e *env, runID string, _ *atomic.Pointer[error]) {
			if err := control.WriteExitNote(e.dataDir, runID, control.ExitNote{Message: "The run could not be recorded: the disk is full", Code: "journal"}); err != nil {
				t.Fatal(err)
			}
		}, "The run could not be recorded: the disk is full"},
		{"a full disk seen by the supervisor", func(t *testing.T, _ *env, _ string, fail *atomic.Pointer[error]) {
			err := fmt.Errorf("%w (12 bytes free)", datadir.ErrDiskFull)
			fail.Store(&err)
		}, "disk holding the data folder is full"},
		{"nothing known", func(*testing.T, *env, string, *atomic.Pointer[error]) {}, "ended unexpectedly"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fail atomic.Pointer[error]
			e := newEnv(t, func(c *supervisor.Config) { c.DataDirCheck = flagCheck{&fail} })
			res := e.start(e.session.ID, "/scenario slow")
			e.waitFor("streaming", 30*time.Second, func() bool { return countType(e.events(res.RunID), run.EventTokenDelta) >= 1 })
			boot := e.boot(res.RunID)
			tc.before(t, e, res.RunID, &fail)
			if err := syscall.Kill(boot.Pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			r := e.waitTerminalFor(res.RunID, 20*time.Second)
			if r.Status != run.StatusInterrupted || !strings.Contains(r.Error, tc.want) {
				t.Fatalf("run ended %s: %q, want it to say %q", r.Status, r.Error, tc.want)
			}
		})
	}
}
