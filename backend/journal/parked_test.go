package journal

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A parked run's row says when it resumes and how often it parked; a
// second writer (the resumed run's shim) continues it; the attempts stay
// in the history once it ends (docs/ARCHITECTURE.md §Usage, parked runs).
func TestParkedRunRow(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	id := f.sub.Run.ID
	get := func() run.Run {
		t.Helper()
		r, err := s.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	w := f.writer(t, id)
	for _, ev := range []struct {
		t run.EventType
		p any
	}{
		{run.EventRunStarted, run.RunStarted{Agent: "demo"}},
		{run.EventStatus, run.StatusChanged{Status: run.StatusParked, ResumesAt: "2026-11-27T15:00:00Z", Attempt: 1}},
	} {
		if _, err := w.AppendSync(ctx, ev.t, ev.p); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if r := get(); r.Status != run.StatusParked || r.ResumesAt != "2026-11-27T15:00:00Z" || r.ParkAttempts != 1 || r.Terminal {
		t.Fatalf("parked row: %+v", r)
	}
	w2 := f.writer(t, id)
	if _, err := w2.AppendSync(ctx, run.EventRunStarted, run.RunStarted{Agent: "demo"}); err != nil {
		t.Fatal(err)
	}
	if r := get(); r.Status != run.StatusRunning || r.ResumesAt != "" || r.ParkAttempts != 1 {
		t.Fatalf("resumed row: %+v", r)
	}
	if _, err := w2.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted}); err != nil {
		t.Fatal(err)
	}
	if r := get(); r.Status != run.StatusCompleted || r.ParkAttempts != 1 {
		t.Fatalf("ended row: %+v", r)
	}
}
