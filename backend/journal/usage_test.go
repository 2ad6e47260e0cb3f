package journal

import (
	"context"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/usage"
)

// endRun plays a run to its done event with u as its usage.
func endRun(t *testing.T, f fixture, runID string, u *run.Usage) {
	t.Helper()
	ctx := ctxT(t)
	w := f.writer(t, runID)
	if _, err := w.AppendSync(ctx, run.EventRunStarted, run.RunStarted{Agent: "fake"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted, Usage: u}); err != nil {
		t.Fatal(err)
	}
}

// TestUsageDaysKeptOnCommit: a run's done event adds it to its day's row
// in the same commit, the model the agent named winning over the run's.
func TestUsageDaysKeptOnCommit(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	endRun(t, f, f.sub.Run.ID, &run.Usage{InputTokens: 100, OutputTokens: 10, CachedTokens: 40, CacheWriteTokens: 5,
		ReasoningTokens: 3, CostUSD: 0.5, Model: "gpt-5"})
	endRun(t, f, f.submit(t, "again", "").Run.ID, &run.Usage{InputTokens: 50, OutputTokens: 5, CostUSD: 0.25, Model: "gpt-5"})
	endRun(t, f, f.submit(t, "unpriced", "").Run.ID, &run.Usage{InputTokens: 7, OutputTokens: 1})
	endRun(t, f, f.submit(t, "nothing", "").Run.ID, nil)

	days, err := s.UsageDays(ctx, "2000-01-01")
	if err != nil {
		t.Fatal(err)
	}
	today := time.Now().Format(time.DateOnly)
	want := []usage.Day{
		{Day: today, ProjectID: f.ses.ProjectID, ProjectName: "demo", Agent: "fake", Model: "gpt-5",
			Counts: usage.Counts{Runs: 2, InputTokens: 150, OutputTokens: 15, CachedTokens: 40, CacheWriteTokens: 5, ReasoningTokens: 3, CostUSD: 0.75}},
		{Day: today, ProjectID: f.ses.ProjectID, ProjectName: "demo", Agent: "fake", Model: "m1",
			Counts: usage.Counts{Runs: 2, InputTokens: 7, OutputTokens: 1, UnpricedRuns: 1}},
	}
	if len(days) != len(want) {
		t.Fatalf("days = %+v", days)
	}
	for i := range want {
		if days[i] != want[i] {
			t.Errorf("day %d = %+v\nwant    %+v", i, days[i], want[i])
		}
	}
	if later, err := s.UsageDays(ctx, "2999-01-01"); err != nil || len(later) != 0 {
		t.Fatalf("since the future = %+v, %v", later, err)
	}

	// The migration's backfill finds the same from the done events.
	if _, err := s.db.ExecContext(ctx, `DELETE FROM usage_days`); err != nil {
		t.Fatal(err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := backfillUsageDays(context.Background(), tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	again, err := s.UsageDays(ctx, "2000-01-01")
	if err != nil || len(again) != len(want) || again[0] != want[0] || again[1] != want[1] {
		t.Fatalf("backfilled = %+v, %v", again, err)
	}
}

// TestQuotaLatest: each vendor's window is the latest reported; usage
// updates without a quota leave it alone.
func TestQuotaLatest(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	used := func(p float64) *float64 { return &p }
	for _, u := range []run.Usage{
		{Quota: &run.Quota{Vendor: "codex", Window: "5-hour", UsedPercent: used(40), ResetsAt: 100}},
		{Quota: &run.Quota{Vendor: "codex", Window: "weekly", UsedPercent: used(5), ResetsAt: 900}},
		{ContextTokens: 10, ContextWindow: 100},
		{Quota: &run.Quota{Vendor: "codex", Window: "5-hour", UsedPercent: used(72), ResetsAt: 100}},
		{Quota: &run.Quota{Vendor: "claude", Window: "five_hour", Limited: true, ResetsAt: 200}},
	} {
		if _, err := w.AppendSync(ctx, run.EventUsageUpdated, u); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.QuotaLatest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("latest = %+v", got)
	}
	if got[0].Vendor != "claude" || !got[0].Limited || got[1].Window != "5-hour" || *got[1].UsedPercent != 72 ||
		got[2].Window != "weekly" || *got[2].UsedPercent != 5 || got[1].SeenAt.IsZero() {
		t.Fatalf("latest = %+v %+v %+v", got[0], got[1], got[2])
	}
}
