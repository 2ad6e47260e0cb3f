// Package fakeclock is a manual clock for tests of code that sleeps on
// timers (the scheduler): Set and Advance move "now" and fire the timers
// that became due; Waiters reports the timers armed, so a test waits for
// the code to go to sleep instead of sleeping itself.
package fakeclock

import (
	"sync"
	"time"
)

// Clock is a manual clock. The zero value is not usable; use New.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*Timer
	armed   chan struct{}
	history []time.Duration
}

// New returns a clock at now.
func New(now time.Time) *Clock { return &Clock{now: now, armed: make(chan struct{}, 1024)} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Timer is a timer of a fake Clock.
type Timer struct {
	c     *Clock
	at    time.Time
	ch    chan time.Time
	fired bool
}

// NewTimer arms a timer d from now.
func (c *Clock) NewTimer(d time.Duration) *Timer {
	c.mu.Lock()
	t := &Timer{c: c, at: c.now.Add(d), ch: make(chan time.Time, 1)}
	c.history = append(c.history, d)
	if d <= 0 {
		t.fired = true
		t.ch <- c.now
	} else {
		c.timers = append(c.timers, t)
	}
	c.mu.Unlock()
	c.armed <- struct{}{}
	return t
}

// C is the timer's channel.
func (t *Timer) C() <-chan time.Time { return t.ch }

// Stop disarms the timer; false if it already fired.
func (t *Timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.fired {
		return false
	}
	t.fired = true
	for i, x := range t.c.timers {
		if x == t {
			t.c.timers = append(t.c.timers[:i], t.c.timers[i+1:]...)
			break
		}
	}
	return true
}

// Set moves the clock to now (forwards or backwards) and fires the timers
// due by then.
func (c *Clock) Set(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = now
	keep := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(now) {
			t.fired = true
			t.ch <- now
		} else {
			keep = append(keep, t)
		}
	}
	c.timers = keep
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// WaitArmed blocks until a timer has been armed since the last call (the
// code under test went to sleep).
func (c *Clock) WaitArmed() { <-c.armed }

// Pending is how many timers are armed and have neither fired nor been
// stopped.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// LastArmed is the duration of the most recent timer armed.
func (c *Clock) LastArmed() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.history) == 0 {
		return 0
	}
	return c.history[len(c.history)-1]
}
