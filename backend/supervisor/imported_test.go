package supervisor_test

import (
	"context"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A session imported by an older version holds runs that ended without a
// `done`: watching one replays its events and ends the stream, instead of
// keeping it open for ever (issue 21 item 13).
func TestWatchEndsForAnEndedRunWithoutDone(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ses, err := e.store.ImportSession(ctx, bundle.Bundle{
		Manifest: bundle.Manifest{
			Session: run.Session{ID: "ses_old", Agent: "demo"},
			Runs:    []bundle.Run{{ID: "run_old", Agent: "demo", Status: run.StatusRunning}},
		},
		Events: map[string][]run.Event{"run_old": {
			{Seq: 1, RunID: "run_old", Type: run.EventRunStarted, Payload: []byte(`{"agent":"demo"}`)},
			{Seq: 2, RunID: "run_old", Type: run.EventTokenDelta, Payload: []byte(`{"text":"half"}`)},
		}},
	}, bundle.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := e.store.ListRuns(ctx, run.RunFilter{SessionID: ses.ID})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %+v %v", runs, err)
	}
	id := runs[0].ID
	// As an older import left it: no done, the row already terminal.
	db := e.store.DB()
	if _, err := db.Exec(`DELETE FROM events WHERE run_id = ? AND type = 'done'`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE runs SET last_seq = 2 WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	ch, err := e.sup.Watch(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []run.Event
	for ev := range ch {
		got = append(got, ev)
	}
	if ctx.Err() != nil {
		t.Fatal("the stream of an ended run stayed open until the watcher gave up")
	}
	if len(got) != 2 || got[1].Seq != 2 {
		t.Fatalf("events %+v, want both", got)
	}
}
