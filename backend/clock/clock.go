// Package clock is time as a dependency: the real clock in the product, a
// manual one in tests (testkit/fakeclock), so code that sleeps on timers
// (the scheduler, the tray's ages) is tested without sleeping.
package clock

import "time"

// Clock tells the time and arms one-shot timers.
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer of a Clock.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
}

// Real is time.Now and time.NewTimer.
type Real struct{}

func (Real) Now() time.Time                 { return time.Now() }
func (Real) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time { return r.t.C }
func (r realTimer) Stop() bool          { return r.t.Stop() }
