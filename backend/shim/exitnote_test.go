package shim

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// A journal that fails for good (the disk stays full) cannot take the
// run's terminal event either: the shim leaves the reason in the run's exit
// note, so the supervisor that closes the run says why.
func TestJournalFailureLeavesExitNote(t *testing.T) {
	j := &memJournal{}
	var tokens atomic.Int32
	j.fail = func(t run.EventType, sync bool) error {
		if t == run.EventTokenDelta && tokens.Add(1) > 3 || t == run.EventDone || t == run.EventError {
			return fmt.Errorf("insert: %w", ErrDiskFull)
		}
		return nil
	}
	c := streamingConn()
	var dataDir string
	h := startHarnessWith(t, connAdapter(adapter.Capabilities{Cancel: true}, c), j, func(s *control.Spec) {
		dataDir = s.DataDir
		os.MkdirAll(control.RunDir(s.DataDir, s.RunID), 0o700) // the supervisor made it
	})
	h.wait()
	if h.j.has(run.EventDone) {
		t.Fatal("done was written by a journal that refuses it")
	}
	n, err := control.ReadExitNote(dataDir, "run_1")
	if err != nil || !strings.Contains(n.Message, "disk is full") || n.Code != "journal" {
		t.Fatalf("exit note %+v, %v", n, err)
	}
}
