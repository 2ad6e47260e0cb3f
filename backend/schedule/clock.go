package schedule

import (
	"os"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/clock"
)

// Clock is the scheduler's time: the real one in the product, a fake in
// unit tests, the real one shifted by an offset in end-to-end tests that
// cross process restarts.
type Clock = clock.Clock

// Timer is a one-shot timer of a Clock.
type Timer = clock.Timer

// RealClock is time.Now and time.NewTimer.
type RealClock = clock.Real

// OffsetClock is the real clock shifted by Offset: "now" is Offset ahead
// (or behind) while timers still run in real time.
type OffsetClock struct{ Offset time.Duration }

func (o OffsetClock) Now() time.Time                 { return time.Now().Add(o.Offset) }
func (o OffsetClock) NewTimer(d time.Duration) Timer { return clock.Real{}.NewTimer(d) }

// ClockOffsetEnv shifts the scheduler's clock for end-to-end tests (a Go
// duration, e.g. "3h"): a test can "sleep" the machine across due times
// without waiting. Unset in normal use.
const ClockOffsetEnv = "HERMESDESK_TEST_CLOCK_OFFSET"

// ClockFromEnv is RealClock, or an OffsetClock when ClockOffsetEnv is set.
func ClockFromEnv() Clock {
	if v := os.Getenv(ClockOffsetEnv); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			return OffsetClock{Offset: d}
		}
	}
	return RealClock{}
}
