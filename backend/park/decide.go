// Package park decides what happens to a run that its vendor's rate limit
// stopped: it waits ("parked") until the quota resets and the core resumes
// it, oldest first (docs/ARCHITECTURE.md §Usage, parked runs). The
// decisions are pure and table-tested; the shim carries out Decide (both
// what it reads during the turn and at its end go into it), the supervisor
// Due.
package park

import (
	"fmt"
	"time"
)

// SettingEnabled turns parking off when set to false: a rate-limited run
// then fails, as it did before parking existed.
const SettingEnabled = "park_rate_limited_runs"

// MaxBackoff caps the wait when the agent named no reset time.
const MaxBackoff = 30 * time.Minute

// Ending is what a run ended with, as far as its vendor's rate limit
// goes: everything Decide needs, so the shim's two readings (during the
// turn and at its end) meet in one decision.
type Ending struct {
	// AgentFailed: the agent itself failed the turn. Only that can park:
	// a completed turn, a cancel (of a run parked before, too) or a
	// journal failure stays what it is.
	AgentFailed bool
	// Seen is what the agent reported during the turn (FromEvent, joined
	// with And): a reached window, an error event's words.
	Seen Signal
	// Error is the words of the agent's failure: its error, a 429 with
	// the reset headers it repeats (FromText).
	Error string
	// Enabled is the setting (on unless turned off).
	Enabled bool
	// Attempts is how many times the run parked before.
	Attempts int
	Now      time.Time
}

// Action is what becomes of the run.
type Action int

const (
	// End: not parked; the run ends as it would have (completed,
	// cancelled, failed — a rate limit with parking off fails as before).
	End Action = iota
	// WaitForReset: parked until the reset the vendor named.
	WaitForReset
	// BackOff: parked for Backoff, the vendor having named no reset ahead.
	BackOff
)

// Verdict says what becomes of the run and, when it parks, until when, as
// which attempt, and the sentence its status event carries.
type Verdict struct {
	Action    Action
	ResumesAt time.Time
	Attempt   int
	// Backoff is the wait chosen without a (future) reset time; zero when
	// the vendor's reset is waited for.
	Backoff time.Duration
	// Limit is the rate limit read (also when the run ends: the log says it).
	Limit  Signal
	Detail string
}

// Park reports whether the run parks.
func (v Verdict) Park() bool { return v.Action != End }

// Decide (docs/ARCHITECTURE.md §Usage, parked runs): only the agent's own
// failure on a rate limit — said during the turn or in its error — parks,
// and only with parking on. A reset time still ahead is waited for; none
// (or one already past, which would resume into the same limit at once)
// backs off 1, 2, 4… minutes by attempt, capped at 30.
func Decide(e Ending) Verdict {
	sig := e.Seen
	if e.Error != "" {
		sig = sig.And(FromText(e.Error, e.Now))
	}
	v := Verdict{Limit: sig}
	if !e.AgentFailed || !sig.Limited || !e.Enabled {
		return v
	}
	v.Attempt = e.Attempts + 1
	if !sig.ResetsAt.IsZero() && sig.ResetsAt.After(e.Now) {
		v.Action, v.ResumesAt = WaitForReset, sig.ResetsAt
		v.Detail = fmt.Sprintf("Waiting for quota — the limit resets at %s; the run resumes then.", clock(sig.ResetsAt, e.Now))
		return v
	}
	v.Action, v.Backoff = BackOff, Backoff(v.Attempt)
	v.ResumesAt = e.Now.Add(v.Backoff)
	why := "no reset time was given"
	if !sig.ResetsAt.IsZero() {
		why = "the reset time given has already passed"
	}
	v.Detail = fmt.Sprintf("Waiting for quota — %s, so the run tries again in %s (at %s).",
		why, minutes(v.Backoff), clock(v.ResumesAt, e.Now))
	return v
}

// Backoff is attempt's wait: 1, 2, 4… minutes, capped at MaxBackoff.
func Backoff(attempt int) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	if attempt > 6 { // 2^5 min already passes the cap
		return MaxBackoff
	}
	return min(time.Duration(1<<(attempt-1))*time.Minute, MaxBackoff)
}

func minutes(d time.Duration) string {
	if m := int(d / time.Minute); m != 1 {
		return fmt.Sprintf("%d minutes", m)
	}
	return "1 minute"
}

// clock says a time of day in the local zone, with the date when it is not
// today.
func clock(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04")
	}
	return t.Format("Mon 2 Jan 15:04")
}
