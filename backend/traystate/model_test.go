package traystate

import (
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/clock"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakeclock"
)

type testClock struct{ *fakeclock.Clock }

func (c testClock) NewTimer(d time.Duration) clock.Timer { return c.Clock.NewTimer(d) }

// TestTrayAgesMoveOnceAMinuteOnlyWhileRunsAreListed: the menu's ages move
// a minute at a time while it lists runs, with nothing else happening on
// the bus; an idle tray arms no timer (docs/ARCHITECTURE.md §Idle).
func TestTrayAgesMoveOnceAMinuteOnlyWhileRunsAreListed(t *testing.T) {
	clk := fakeclock.New(t0)
	views := make(chan View, 16)
	m := NewModel(func(v View) { views <- v })
	m.clock = testClock{clk}

	next := func(want string) {
		t.Helper()
		for {
			select {
			case v := <-views:
				if len(v.Items) > 0 && strings.Contains(v.Items[0].Label, want) {
					return
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no view with %q", want)
			}
		}
	}

	m.Refresh()
	if v := <-views; v.Running != 0 {
		t.Fatalf("first view lists %d runs", v.Running)
	}
	if n := clk.Pending(); n != 0 {
		t.Fatalf("idle tray armed %d timers; want none", n)
	}

	r := rs("a", run.StatusRunning, t0, nil)
	m.Apply(run.WatchMessage{Type: run.WatchRunChanged, Run: &r})
	next("just now")
	for _, age := range []string{"1 min", "2 min"} {
		if n, d := clk.Pending(), clk.LastArmed(); n != 1 || d != time.Minute {
			t.Fatalf("with a run listed: %d timers, last %v; want one of a minute", n, d)
		}
		clk.Advance(time.Minute)
		next(age)
	}

	done := rs("a", run.StatusCompleted, t0, nil)
	m.Apply(run.WatchMessage{Type: run.WatchRunChanged, Run: &done})
	if v := <-views; v.Running != 0 {
		t.Fatalf("after the run ended the view lists %d runs", v.Running)
	}
	if n := clk.Pending(); n != 0 {
		t.Fatalf("idle again, %d timers armed; want none", n)
	}
}
