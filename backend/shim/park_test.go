package shim

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Claude Code's way: a rate_limit_event reports the window reached (with
// its reset) and the turn then fails with the usage-limit result. The run
// parks until that reset instead of ending: status parked, no done
// (docs/ARCHITECTURE.md §Usage, parked runs).
func TestRunParksOnAReachedWindow(t *testing.T) {
	reset := time.Now().Add(3 * time.Hour).Truncate(time.Second)
	c := &fakeConn{turn: func(_ context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
		emit.Emit(run.EventUsageUpdated, run.Usage{Quota: &run.Quota{Vendor: "claude", Window: "five_hour", ResetsAt: reset.Unix(), Limited: true}})
		emit.Emit(run.EventUsageUpdated, run.Usage{Quota: &run.Quota{Vendor: "claude", Window: "seven_day", UsedPercent: new(float64)}})
		return adapter.TurnResult{Err: errors.New("claude: 5-hour limit reached ∙ resets 3pm")}
	}}
	h := startHarness(t, connAdapter(adapter.Capabilities{}, c), nil)
	h.wait()
	if h.j.has(run.EventDone) {
		t.Fatalf("a parked run has a done: %+v", h.j.all())
	}
	evs := h.j.all()
	last := evs[len(evs)-1]
	var st run.StatusChanged
	if last.Type != run.EventStatus || json.Unmarshal(last.Payload, &st) != nil || st.Status != run.StatusParked {
		t.Fatalf("last event %s %s, want status parked", last.Type, last.Payload)
	}
	if at, err := time.Parse(time.RFC3339, st.ResumesAt); err != nil || !at.Equal(reset) || st.Attempt != 1 {
		t.Fatalf("parked %+v, want resumes at %v attempt 1", st, reset)
	}
	if !h.r.isParked() {
		t.Fatal("the runner does not know it parked (its spec would be removed)")
	}
}

// A resumed run continues: no second user message, and it says which try
// this is.
func TestResumedRunSkipsItsMessage(t *testing.T) {
	c := &fakeConn{turn: func(_ context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
		emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "back"})
		return adapter.TurnResult{StopReason: "end_turn"}
	}}
	h := startHarnessWithRunner(t, connAdapter(adapter.Capabilities{}, c), func(r *runner) { r.resumed, r.parkAttempts = true, 1 })
	h.wait()
	if h.j.has(run.EventMessageUser) {
		t.Fatal("the resumed run recorded its message again")
	}
	var said bool
	for _, ev := range h.j.all() {
		var st run.StatusChanged
		if ev.Type == run.EventStatus && json.Unmarshal(ev.Payload, &st) == nil && st.Detail == "resumed after the rate limit (attempt 2)" {
			said = true
		}
	}
	if !said || h.done().Status != run.StatusCompleted {
		t.Fatalf("events %+v", h.j.all())
	}
}
