// Package park decides what happens to a run that its vendor's rate limit
// stopped: it waits ("parked") until the quota resets and the core resumes
// it, oldest first (docs/ARCHITECTURE.md §Usage, parked runs). The
// decisions are pure and table-tested; the shim carries out Decide, the
// supervisor Due.
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

// Facts is what Decide knows when a run stopped on a rate limit.
type Facts struct {
	Enabled bool // the setting (on unless turned off)
	// ResetsAt is when the vendor said the limit resets (zero: not said).
	ResetsAt time.Time
	// Attempts is how many times the run parked before.
	Attempts int
	Now      time.Time
}

// Verdict says whether the run parks, until when, as which attempt, and
// the sentence its status event carries.
type Verdict struct {
	Park      bool
	ResumesAt time.Time
	Attempt   int
	// Backoff is the wait chosen without a (future) reset time; zero when
	// the vendor's reset is waited for.
	Backoff time.Duration
	Detail  string
}

// Decide: parking off fails the run; a reset time still ahead is waited
// for; none (or one already past, which would resume into the same
// limit at once) backs off 1, 2, 4… minutes by attempt, capped at 30.
func Decide(f Facts) Verdict {
	if !f.Enabled {
		return Verdict{}
	}
	v := Verdict{Park: true, Attempt: f.Attempts + 1}
	if !f.ResetsAt.IsZero() && f.ResetsAt.After(f.Now) {
		v.ResumesAt = f.ResetsAt
		v.Detail = fmt.Sprintf("Waiting for quota — the limit resets at %s; the run resumes then.", clock(f.ResetsAt, f.Now))
		return v
	}
	v.Backoff = Backoff(v.Attempt)
	v.ResumesAt = f.Now.Add(v.Backoff)
	why := "no reset time was given"
	if !f.ResetsAt.IsZero() {
		why = "the reset time given has already passed"
	}
	v.Detail = fmt.Sprintf("Waiting for quota — %s, so the run tries again in %s (at %s).",
		why, minutes(v.Backoff), clock(v.ResumesAt, f.Now))
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
