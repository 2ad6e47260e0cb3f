package supervisor_test

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// A journal that lost commits already shown live (a damaged WAL after a
// crash) must not hand their seqs out again: a client resuming after the
// last seq it saw would miss the run's interruption. The supervisor writes
// it after the highest seq it announced, and the audit lists the run.
func TestInterruptionNeverReusesAnAnnouncedSeq(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "/scenario slow")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ch, err := e.sup.Watch(ctx, res.RunID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var seen int64
	for ev := range ch {
		seen = ev.Seq
		if ev.Type == run.EventTokenDelta && seen >= 8 {
			break
		}
	}
	boot, err := control.ReadBootstrap(e.dataDir, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	// Freeze the shim (it keeps its lock: no fencing yet), lose the last
	// commits as a damaged WAL would, then let the shim die.
	if err := syscall.Kill(boot.Pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	keep := seen - 3
	db := e.store.DB()
	if _, err := db.Exec(`DELETE FROM events WHERE run_id = ? AND seq > ?`, res.RunID, keep); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE runs SET last_seq = ? WHERE id = ?`, keep, res.RunID); err != nil {
		t.Fatal(err)
	}
	syscall.Kill(boot.Pid, syscall.SIGKILL)
	syscall.Kill(boot.Pid, syscall.SIGCONT)
	var rest []run.Event
	for ev := range ch {
		rest = append(rest, ev)
	}
	if len(rest) == 0 || !rest[len(rest)-1].Terminal {
		t.Fatalf("the watcher did not see the run end: %+v", rest)
	}
	var errEv *run.Event
	for i := range rest {
		if rest[i].Type == run.EventError {
			errEv = &rest[i]
		}
	}
	if errEv == nil || errEv.Seq <= seen {
		t.Fatalf("after seq %d the watcher got %+v: the interruption reuses a seq it already held", seen, rest)
	}
	// Replay from any seq a client held shows the interruption too.
	evs, err := e.store.Events(context.Background(), res.RunID, seen, 100)
	if err != nil || len(evs) == 0 || evs[len(evs)-1].Type != run.EventDone {
		t.Fatalf("replay after %d: %+v %v", seen, evs, err)
	}
	a, err := e.store.Audit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range a.Malformed {
		if it.RunID == res.RunID {
			if !strings.Contains(it.Problem, "lost from the journal") {
				t.Fatalf("audit: %+v", it)
			}
			found = true
		}
	}
	if !found {
		t.Fatalf("the audit does not list the run: %+v", a.Malformed)
	}
}
