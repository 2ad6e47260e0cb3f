package shim

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// A warm shim serves runs in turn on one socket: a request naming an
// earlier run never reaches the current one.
func TestShimRoutesRequestsToTheRunTheyName(t *testing.T) {
	j := &memJournal{}
	h := newHub(0)
	spec := control.Spec{RunID: "run_2", SessionID: "ses_1", Agent: "fake", DataDir: t.TempDir(), DBPath: "db"}
	r := newRunner(spec, j.journal(), j.writer(), h, adapter.NewRegistry(&fakeAdapter{}), slog.New(slog.DiscardHandler), io.Discard, nil)
	sh := &shim{log: slog.New(slog.DiscardHandler), cur: r, curHub: h}

	if sh.hubFor("run_1") != nil || sh.hubFor("run_2") != h || sh.hubFor("") != h {
		t.Fatal("hubFor does not route by run id")
	}
	ctx := context.Background()
	resp := sh.handle(ctx, control.Request{Op: control.OpCancel, RunID: "run_1"})
	if resp.Result == nil || resp.Result.Status != run.ControlNotActive {
		t.Fatalf("cancel of an earlier run = %+v", resp)
	}
	if resp := sh.handle(ctx, control.Request{Op: control.OpStatus, RunID: "run_1"}); resp.Code != control.CodeEnded {
		t.Fatalf("status of an earlier run = %+v", resp)
	}
	if resp := sh.handle(ctx, control.Request{Op: control.OpStatus, RunID: "run_2"}); resp.State == nil || resp.State.RunID != "run_2" {
		t.Fatalf("status of the current run = %+v", resp)
	}
	// Not idle: warm ops are refused.
	for _, op := range []control.Op{control.OpStop, control.OpNextRun} {
		req := control.Request{Op: op, Spec: &spec}
		if resp := sh.handle(ctx, req); resp.Code != control.CodeNotWarm {
			t.Fatalf("%s while serving a run = %+v", op, resp)
		}
	}
}

// A next run taken just as the shim exits is answered (refused), never
// left waiting.
func TestNextRunTakenAsTheShimExitsIsRefused(t *testing.T) {
	dir := t.TempDir()
	prev := control.Spec{RunID: "run_1", SessionID: "ses_1", Agent: "fake", DataDir: dir, DBPath: "db"}
	w := newWarmState(prev)
	w.arm(time.Hour)
	sh := &shim{log: slog.New(slog.DiscardHandler), dataDir: dir, sessionID: "ses_1", warm: w}
	next := prev
	next.RunID = "run_2"
	got := make(chan control.Response, 1)
	go func() { got <- sh.handle(context.Background(), control.Request{Op: control.OpNextRun, Spec: &next}) }()
	waitUntil(t, "the run to be taken", func() bool { return len(w.handoff) == 1 })
	sh.exit()
	if resp := <-got; resp.Code != control.CodeNotWarm {
		t.Fatalf("next_run = %+v, want not_warm", resp)
	}
}
