package supervisor_test

import (
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestDemoRunCompletes(t *testing.T) {
	e := newEnv(t)
	res := e.start(e.session.ID, "hello")
	evs := e.watchAll(e.sup, res.RunID, 0)
	checkSeqs(t, evs, 0)
	if d := doneOf(t, evs); d.Status != run.StatusCompleted {
		t.Fatalf("done = %+v", d)
	}
	if evs[0].Type != run.EventRunStarted || evs[1].Type != run.EventMessageUser {
		t.Fatalf("run opens with %s, %s", evs[0].Type, evs[1].Type)
	}
	if got := text(evs, run.EventTokenDelta); strings.TrimSpace(got) == "" {
		t.Fatal("no assistant text")
	}
}
