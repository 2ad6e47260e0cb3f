package stack

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/schedule"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/fakeclock"
)

type testClock struct{ *fakeclock.Clock }

func (c testClock) NewTimer(d time.Duration) schedule.Timer { return c.Clock.NewTimer(d) }

// Editing, pausing and resuming through the service, on the real journal
// and scheduler with a manual clock: no run is due in any step.
func TestScheduleEditPauseResume(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t0 := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	clk := fakeclock.New(t0)
	st, err := Open(ctx, Options{DataDir: dir, Clock: testClock{clk}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := st.Service
	p, err := svc.CreateProject(ctx, service.CreateProjectRequest{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := svc.CreateSchedule(ctx, service.ScheduleRequest{Prompt: "Morning notes\nmore", Agent: "demo", ProjectID: p.ID,
		When: "every day at 9:00", Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "Morning notes" || s.Cron != "0 9 * * *" || s.Target != schedule.TargetFresh || s.Missed != schedule.MissedRunOnce {
		t.Fatalf("created %+v", s.Schedule)
	}
	if s.NextDue == nil || !s.NextDue.Equal(t0.Add(time.Hour)) {
		t.Fatalf("next due %v", s.NextDue)
	}

	off := false
	s, err = svc.UpdateSchedule(ctx, s.ID, service.SchedulePatch{Enabled: &off})
	if err != nil || s.Enabled || s.NextDue != nil {
		t.Fatalf("paused: %+v %v", s, err)
	}
	// Three days pass while paused; resuming counts from now, no catch-up.
	clk.Set(t0.Add(72 * time.Hour))
	on := true
	s, err = svc.UpdateSchedule(ctx, s.ID, service.SchedulePatch{Enabled: &on})
	if err != nil || !s.Enabled || s.NextDue == nil || !s.NextDue.Equal(t0.Add(73*time.Hour)) {
		t.Fatalf("resumed: %+v %v", s, err)
	}
	if h, _ := svc.ScheduleHistory(ctx, s.ID, 0); len(h) != 0 {
		t.Errorf("pausing made history: %+v", h)
	}

	// A new zone re-reads the phrase there.
	tz := "America/New_York"
	s, err = svc.UpdateSchedule(ctx, s.ID, service.SchedulePatch{Timezone: &tz})
	if err != nil || s.Phrase != "every day at 9:00" || s.NextDue.UTC().Hour() != 14 {
		t.Fatalf("new zone: next %v phrase %q %v", s.NextDue, s.Phrase, err)
	}
	// Bad edits change nothing.
	past := t0
	bad := "every blue moon"
	empty := " "
	for name, patch := range map[string]service.SchedulePatch{
		"one-off in the past": {At: &past},
		"unknown phrase":      {When: &bad},
		"empty prompt":        {Prompt: &empty},
	} {
		if _, err := svc.UpdateSchedule(ctx, s.ID, patch); !errors.Is(err, service.ErrBadRequest) {
			t.Errorf("%s: %v, want a bad request", name, err)
		}
	}
	got, _ := svc.Schedule(ctx, s.ID)
	if got.Cron != "0 9 * * *" || got.Timezone != tz || got.Prompt != "Morning notes\nmore" || got.At != nil {
		t.Errorf("a refused edit changed the schedule: %+v", got.Schedule)
	}
	every := "every 2 hours"
	s, err = svc.UpdateSchedule(ctx, s.ID, service.SchedulePatch{When: &every})
	if err != nil || s.Cron != "0 */2 * * *" || s.Phrase != "every 2 hours" {
		t.Fatalf("new time: %+v %v", s.Schedule, err)
	}
	if err := svc.DeleteSchedule(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Schedule(ctx, s.ID); !errors.Is(err, service.ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
}
