package schedule

import "time"

// Decisions at a wake-up, pure over (schedule, now) so they are table-tested
// with any clock (docs/ARCHITECTURE.md §Schedules).

// Grace is how late a due time may be handled and still count as on time.
// A wake-up within it fires normally whatever the missed-run policy (the
// timer fired a little late, the supervisor started a few seconds after the
// due time); beyond it the due time was missed and the policy decides.
const Grace = 2 * time.Minute

// maxCount bounds how many missed due times are counted one by one (an
// every-minute schedule over a week of sleep is ~10k).
const maxCount = 100_000

// Kind is what a wake-up does with a schedule.
type Kind string

const (
	// Wait: nothing is due.
	Wait Kind = "wait"
	// Fire: run now (on time, or the one catch-up under run_once).
	Fire Kind = "fire"
	// Miss: due times passed beyond Grace and the policy is skip.
	Miss Kind = "miss"
)

// Decision is what to do with one schedule at one wake-up.
type Decision struct {
	Kind Kind
	// Due is the due time acted on: the latest one at or before now.
	Due time.Time
	// Missed counts the due times that passed beyond Grace (the ones a
	// catch-up stands for, or the ones skipped). Capped at maxCount.
	Missed int
	// CatchUp: this firing stands for missed ones (run_once).
	CatchUp bool
	// Cursor is the schedule's cursor after acting (Due, or unchanged).
	Cursor time.Time
	// Next is the first due time after Cursor (zero: none, a spent one-off).
	Next time.Time
}

// Decide looks at s at now. Only due times after s.Cursor count, so a
// clock set backwards (now before the cursor) waits for the first due time
// after the cursor: nothing fires twice. However many due times passed,
// the result is at most one firing: never a burst.
func Decide(s Schedule, w When, now time.Time) Decision {
	d := Decision{Kind: Wait, Cursor: s.Cursor}
	if !s.Enabled {
		return d // paused: no next due time
	}
	first := w.Next(s.Cursor)
	if first.IsZero() || first.After(now) {
		d.Next = first
		return d
	}
	// Walk the due times up to now: the last one is acted on, the late
	// ones before it (and it, if late) were missed.
	last, n := first, 1
	for n < maxCount {
		t := w.Next(last)
		if t.IsZero() || t.After(now) {
			break
		}
		last, n = t, n+1
	}
	if n == maxCount {
		// Too many to count one by one: the one acted on must still be
		// the latest at or before now, or the next wake finds more due
		// and fires a second catch-up (issue 21 item 11).
		last = latestDue(w, last, now)
	}
	d.Due, d.Cursor = last, last
	d.Next = w.Next(last)
	late := now.Sub(last) > Grace
	missed := n - 1 // the earlier due times were all missed
	if late || n == maxCount {
		missed = n // or more: capped
	}
	d.Missed = missed
	switch {
	case !late:
		d.Kind = Fire
	case s.Missed == MissedSkip:
		d.Kind = Miss
	default:
		d.Kind, d.CatchUp = Fire, true
	}
	return d
}

// latestDue is the last due time at or before now, searching back from
// now in doubling windows (never before from, itself a due time at or
// before now), so it costs a few steps however long the machine slept.
func latestDue(w When, from, now time.Time) time.Time {
	for k := time.Minute; ; k *= 2 {
		start := now.Add(-k)
		if !start.After(from) {
			start = from
		}
		if t := w.Next(start); !t.IsZero() && !t.After(now) {
			for {
				u := w.Next(t)
				if u.IsZero() || u.After(now) {
					return t
				}
				t = u
			}
		}
		if start.Equal(from) {
			return from
		}
	}
}

// Due returns the earliest next due time over the enabled schedules (zero:
// none) — what the loop's timer is armed for.
func Due(next []time.Time) time.Time {
	var min time.Time
	for _, t := range next {
		if !t.IsZero() && (min.IsZero() || t.Before(min)) {
			min = t
		}
	}
	return min
}

// Outcome is what a firing's history row says happened.
type Outcome string

const (
	// OutcomeStarting: recorded before the run is started, so a crash in
	// between is finished on restart (same request id: never a second run).
	OutcomeStarting Outcome = "starting"
	// OutcomeFired: a run was started; its real status is read from the run.
	OutcomeFired Outcome = "fired"
	// OutcomeSkipped: not run, with the reason (the previous one still runs).
	OutcomeSkipped Outcome = "skipped"
	// OutcomeMissed: due while asleep or not running, policy skip.
	OutcomeMissed Outcome = "missed"
	// OutcomeFailedToStart: the run could not be started, with the reason.
	OutcomeFailedToStart Outcome = "failed_to_start"
)

// Overlap decides a due firing against the schedule's previous run: one
// still active means this firing is skipped, with the reason.
func Overlap(prevRunID string, prevActive bool) (skip bool, reason string) {
	if prevRunID != "" && prevActive {
		return true, "the previous firing's run (" + prevRunID + ") was still running"
	}
	return false, ""
}
