package shim

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/park"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/usage"
)

func TestDecideOutcome(t *testing.T) {
	exit := func(n int) *int { return &n }
	tail := func() string { return "last log line" }
	for _, tc := range []struct {
		name      string
		res       adapter.TurnResult
		cancelled bool
		jerr      error
		status    run.Status
		code      run.ErrorCode
		message   string
		detail    string
	}{
		{name: "completed", res: adapter.TurnResult{StopReason: "end_turn"}, status: run.StatusCompleted},
		{name: "cancelled by a control", cancelled: true, status: run.StatusCancelled},
		{name: "cancelled by the agent", res: adapter.TurnResult{Cancelled: true}, status: run.StatusCancelled},
		{name: "cancel wins over an agent error", cancelled: true, res: adapter.TurnResult{Err: errors.New("boom")}, status: run.StatusCancelled},
		{name: "agent exited", res: adapter.TurnResult{Err: fmt.Errorf("read: %w", adapter.ErrAgentExited), ExitCode: exit(3)},
			status: run.StatusFailed, code: "agent", message: "The agent exited unexpectedly (exit code 3).", detail: "last log line"},
		{name: "agent exited without a code", res: adapter.TurnResult{Err: adapter.ErrAgentExited},
			status: run.StatusFailed, code: "agent", message: "The agent exited unexpectedly.", detail: "last log line"},
		{name: "agent error", res: adapter.TurnResult{Err: errors.New("rate limited")},
			status: run.StatusFailed, code: "agent", message: "The agent failed: rate limited", detail: "last log line"},
		{name: "journal failure wins", jerr: ErrDiskFull, cancelled: true, res: adapter.TurnResult{Err: errors.New("x")},
			status: run.StatusFailed, code: "journal", message: "The run could not be recorded: " + safeJournalReason(ErrDiskFull)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := decideOutcome(tc.res, tc.cancelled, tc.jerr, tail)
			if o.status != tc.status || o.code != tc.code || o.message != tc.message || o.detail != tc.detail {
				t.Errorf("got %s/%q/%q/%q, want %s/%q/%q/%q", o.status, o.code, o.message, o.detail, tc.status, tc.code, tc.message, tc.detail)
			}
		})
	}
}

// TestOutcomeUsagePriced: the done event carries the run's cost — the
// agent's own, or the shipped table's for a model it lists, or none.
func TestOutcomeUsagePriced(t *testing.T) {
	for _, tc := range []struct {
		name   string
		usage  *run.Usage
		source string
	}{
		{"no usage", nil, ""},
		{"agent's cost", &run.Usage{Model: "claude-sonnet-4-5", InputTokens: 10, CostUSD: 0.5}, "agent"},
		{"table's cost", &run.Usage{Model: "gpt-5-mini", InputTokens: 1000, OutputTokens: 100}, "prices " + usage.Prices.Date},
		{"unknown model", &run.Usage{Model: "gpt-5.5", InputTokens: 1000}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := decideOutcome(adapter.TurnResult{Usage: tc.usage}, false, nil, func() string { return "" })
			if (o.usage == nil) != (tc.usage == nil) {
				t.Fatalf("usage = %+v", o.usage)
			}
			if o.usage != nil && (o.usage.CostSource != tc.source || (tc.source != "") != (o.usage.CostUSD > 0)) {
				t.Errorf("usage = %+v, want cost from %q", o.usage, tc.source)
			}
		})
	}
}

func TestKeepWarm(t *testing.T) {
	fit := warmFacts{warmable: true, status: run.StatusCompleted, recordedPid: 42, connPid: 42}
	with := func(f func(*warmFacts)) warmFacts { c := fit; f(&c); return c }
	for _, tc := range []struct {
		name string
		f    warmFacts
		want bool
	}{
		{"completed on a live agent", fit, true},
		{"no pid recorded", with(func(f *warmFacts) { f.recordedPid, f.connPid = 0, 7 }), true},
		{"warm agents off", with(func(f *warmFacts) { f.warmable = false }), false},
		{"failed", with(func(f *warmFacts) { f.status = run.StatusFailed }), false},
		{"cancelled", with(func(f *warmFacts) { f.status = run.StatusCancelled }), false},
		{"interrupted", with(func(f *warmFacts) { f.status = run.StatusInterrupted }), false},
		{"cancel accepted as it finished", with(func(f *warmFacts) { f.spoiled = true }), false},
		{"data dir gone", with(func(f *warmFacts) { f.dataDirGone = true }), false},
		{"agent exited", with(func(f *warmFacts) { f.agentGone = true }), false},
		{"shim shutting down", with(func(f *warmFacts) { f.shuttingDown = true }), false},
		{"process per turn", with(func(f *warmFacts) { f.connPid = 43 }), false},
	} {
		if got := keepWarm(tc.f); got != tc.want {
			t.Errorf("%s: keepWarm = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestParkOutcome: the shim carries out park.Decide (table-tested there)
// on the played turn's outcome: only the agent's own failure parks
// (docs/ARCHITECTURE.md §Usage, parked runs).
func TestParkOutcome(t *testing.T) {
	now := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	failed := outcome{status: run.StatusFailed, code: run.ErrorAgent, message: "The agent failed: x"}
	limit429 := "429 Too Many Requests (retry-after: 60)"
	reset := now.Add(time.Hour)
	on := func(seen park.Signal, err string, attempts int) park.Ending {
		return park.Ending{Seen: seen, Error: err, Enabled: true, Attempts: attempts, Now: now}
	}
	for _, tc := range []struct {
		name      string
		o         outcome
		e         park.Ending
		status    run.Status
		resumesAt time.Time
		attempt   int
	}{
		{"a 429 with its reset parks until it", failed, on(park.Signal{}, limit429, 0), run.StatusParked, now.Add(time.Minute), 1},
		{"a reached window's reset parks until it", failed, on(park.Signal{Limited: true, ResetsAt: reset}, "exit status 1", 0), run.StatusParked, reset, 1},
		{"no reset given: back-off", failed, on(park.Signal{}, "API Error: rate_limit_error", 0), run.StatusParked, now.Add(time.Minute), 1},
		{"a repeated limit backs off longer", failed, on(park.Signal{}, "rate limit", 3), run.StatusParked, now.Add(8 * time.Minute), 4},
		{"parking off fails as before", failed, park.Ending{Error: limit429, Now: now}, run.StatusFailed, time.Time{}, 0},
		{"another failure fails", failed, on(park.Signal{}, "boom", 0), run.StatusFailed, time.Time{}, 0},
		{"a cancelled run stays cancelled", outcome{status: run.StatusCancelled}, on(park.Signal{Limited: true}, limit429, 1), run.StatusCancelled, time.Time{}, 0},
		{"a completed turn stays completed", outcome{status: run.StatusCompleted}, on(park.Signal{Limited: true, ResetsAt: reset}, "", 0), run.StatusCompleted, time.Time{}, 0},
		{"a journal failure is no limit", outcome{status: run.StatusFailed, code: run.ErrorJournal}, on(park.Signal{}, limit429, 0), run.StatusFailed, time.Time{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := parkOutcome(tc.o, tc.e)
			if o.status != tc.status || !o.park.ResumesAt.Equal(tc.resumesAt) || o.park.Attempt != tc.attempt {
				t.Errorf("got %s until %v attempt %d, want %s until %v attempt %d", o.status, o.park.ResumesAt, o.park.Attempt, tc.status, tc.resumesAt, tc.attempt)
			}
		})
	}
}
