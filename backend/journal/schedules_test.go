package journal

import (
	"errors"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/schedule"
)

func TestSchedulesStore(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	at := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	sc, err := s.CreateSchedule(ctx, schedule.Schedule{Name: "n", Prompt: "p", Agent: "demo", ProjectID: f.ses.ProjectID,
		At: &at, Timezone: "UTC", Target: schedule.TargetFresh, Missed: schedule.MissedSkip, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if sc.At == nil || !sc.At.Equal(at) || sc.Cursor.IsZero() || !sc.Enabled {
		t.Fatalf("stored %+v", sc)
	}
	if _, err := s.CreateSchedule(ctx, schedule.Schedule{ProjectID: "prj_gone", Target: "fresh", Missed: "skip"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown project: %v", err)
	}

	// A firing that started a run reads its status from the run.
	cur := at
	fr, err := s.AddFiring(ctx, schedule.Firing{ScheduleID: sc.ID, DueAt: at, Outcome: schedule.OutcomeStarting, SessionID: f.ses.ID, RequestID: "r"}, &cur)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.StartingFirings(ctx); len(got) != 1 {
		t.Errorf("starting firings %v", got)
	}
	if err := s.FinishFiring(ctx, fr.ID, schedule.OutcomeFired, f.sub.Run.ID, "", ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetSchedule(ctx, sc.ID); !got.Cursor.Equal(at) {
		t.Errorf("cursor %s, want %s", got.Cursor, at)
	}
	hist, err := s.Firings(ctx, sc.ID, 10)
	if err != nil || len(hist) != 1 || hist[0].Status != string(run.StatusQueued) || hist[0].SessionID != f.ses.ID {
		t.Fatalf("history %+v, %v", hist, err)
	}
	if err := s.SetRunStatus(ctx, f.sub.Run.ID, run.StatusRunning); err != nil {
		t.Fatal(err)
	}
	if last, ok, _ := s.LastRunFiring(ctx, sc.ID); !ok || last.Status != "running" {
		t.Errorf("last run firing %+v", last)
	}
	if _, err := s.AddFiring(ctx, schedule.Firing{ScheduleID: sc.ID, DueAt: at, Outcome: schedule.OutcomeSkipped, Reason: "busy"}, nil); err != nil {
		t.Fatal(err)
	}
	last, _ := s.LastFirings(ctx)
	if l := last[sc.ID]; l.Status != "skipped" || l.Reason != "busy" {
		t.Errorf("last firing %+v", l)
	}

	sc.Enabled, sc.Name = false, "renamed"
	if got, err := s.UpdateSchedule(ctx, sc); err != nil || got.Enabled || got.Name != "renamed" {
		t.Errorf("update: %+v %v", got, err)
	}
	if err := s.DeleteSchedule(ctx, sc.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetSchedule(ctx, sc.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	if hist, _ := s.Firings(ctx, sc.ID, 10); len(hist) != 0 {
		t.Errorf("history outlived its schedule: %v", hist)
	}
	if _, err := s.AddFiring(ctx, schedule.Firing{ScheduleID: sc.ID, Outcome: schedule.OutcomeMissed}, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("firing of a deleted schedule: %v", err)
	}
	if _, err := s.GetRun(ctx, f.sub.Run.ID); err != nil {
		t.Errorf("deleting a schedule removed its run: %v", err)
	}
}

// A failed scheduled run counts as "could not start" when its error event
// carries one of run.StartFailureCodes (the typed codes the SQL is built
// from), not for an agent that ran and failed.
func TestFiringStartFailedByErrorCode(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	at := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	sc, err := s.CreateSchedule(ctx, schedule.Schedule{Name: "n", Prompt: "p", Agent: "demo", ProjectID: f.ses.ProjectID,
		At: &at, Timezone: "UTC", Target: schedule.TargetFresh, Missed: schedule.MissedSkip, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		code run.ErrorCode
		want bool
	}{
		{run.ErrorAgentNotInstalled, true},
		{run.ErrorAgentStart, true},
		{run.ErrorAgentUnknown, true},
		{run.ErrorAgent, false},
		{run.ErrorAuthRequired, false},
	}
	for i, tc := range cases {
		sub := f.submit(t, "hello", "")
		w := f.writer(t, sub.Run.ID)
		for _, e := range []struct {
			typ run.EventType
			p   any
		}{
			{run.EventRunStarted, run.RunStarted{Agent: "fake"}},
			{run.EventError, run.ErrorInfo{Message: "no", Code: tc.code}},
			{run.EventDone, run.Done{Status: run.StatusFailed, Error: "no"}},
		} {
			if _, err := w.AppendSync(ctx, e.typ, e.p); err != nil {
				t.Fatal(err)
			}
		}
		due := at.Add(time.Duration(i) * time.Minute)
		fr, err := s.AddFiring(ctx, schedule.Firing{ScheduleID: sc.ID, DueAt: due, Outcome: schedule.OutcomeStarting, SessionID: f.ses.ID, RequestID: string(tc.code)}, &due)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.FinishFiring(ctx, fr.ID, schedule.OutcomeFired, sub.Run.ID, "", ""); err != nil {
			t.Fatal(err)
		}
		last, ok, err := s.LastRunFiring(ctx, sc.ID)
		if err != nil || !ok || last.RunID != sub.Run.ID {
			t.Fatalf("%s: last firing %+v %v %v", tc.code, last, ok, err)
		}
		if last.StartFailed != tc.want {
			t.Errorf("%s: StartFailed %v, want %v", tc.code, last.StartFailed, tc.want)
		}
	}
}
