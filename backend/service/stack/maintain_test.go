package stack

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/clock"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/testkit/fakeclock"
)

type maintainClock struct{ *fakeclock.Clock }

func (c maintainClock) NewTimer(d time.Duration) clock.Timer { return c.Clock.NewTimer(d) }

// fakeRetention answers the setting and counts the passes.
type fakeRetention struct {
	days   float64
	err    error
	passes chan struct{}
}

func (f *fakeRetention) RetentionDays(context.Context) (float64, error) { return f.days, f.err }

func (f *fakeRetention) ApplyRetention(context.Context) (journal.CompactStats, error) {
	f.passes <- struct{}{}
	return journal.CompactStats{}, nil
}

// Retention runs 30 s after start only when it is on; off (the default),
// the first timer is the 6-hour one, so an idle core wakes for nothing in
// its first minute (docs/ARCHITECTURE.md §Idle).
func TestMaintainWakesOnlyWhenRetentionIsOn(t *testing.T) {
	cases := []struct {
		name  string
		days  float64
		err   error
		first time.Duration
	}{
		{"off", 0, nil, maintenanceEvery},
		{"on", 30, nil, maintenanceFirst},
		{"unreadable setting", 0, errors.New("disk"), maintenanceEvery},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk := fakeclock.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			j := &fakeRetention{days: c.days, err: c.err, passes: make(chan struct{}, 4)}
			stop := maintain(j, maintainClock{clk}, slog.New(slog.NewTextHandler(io.Discard, nil)))
			defer stop()
			clk.WaitArmed()
			if got := clk.LastArmed(); got != c.first {
				t.Fatalf("first pass armed after %v, want %v", got, c.first)
			}
			clk.Advance(c.first)
			<-j.passes
			clk.WaitArmed()
			if got := clk.LastArmed(); got != maintenanceEvery {
				t.Errorf("next pass armed after %v, want %v", got, maintenanceEvery)
			}
			if n := clk.Pending(); n != 1 {
				t.Errorf("%d timers armed, want 1", n)
			}
		})
	}
}
