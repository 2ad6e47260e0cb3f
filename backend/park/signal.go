package park

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Signal is what a stopped run's agent said about its vendor's rate
// limit: whether it hit one and, when said, when it resets.
type Signal struct {
	Limited  bool
	ResetsAt time.Time // zero: not said
}

// limitWords are how agents say a rate limit in their errors: Claude
// Code's rate_limit_error / "usage limit reached|<unix>" / "5-hour limit
// reached", Codex's usage-limit error, an OpenAI-compatible server's 429
// as an ACP agent repeats it, Gemini's RESOURCE_EXHAUSTED.
var limitWords = regexp.MustCompile(`(?i)rate[ _-]?limit|too many requests|usage[ _-]?limit|limit reached|` +
	`resource[ _]exhausted|quota exceeded|exceeded your (current )?quota|` +
	`\b(http|status|code)[ :=]{0,3}429\b|\b429\]?:?\s*(too many|resource|rate)|api error:?\s*429\b`)

var (
	// "usage limit reached|1764255600": the reset in unix seconds.
	pipeUnix = regexp.MustCompile(`\|(\d{10})\b`)
	// "resets_at": 1764255600 / "resetsAt":1764255600 in a quoted body.
	jsonUnix = regexp.MustCompile(`(?i)"?resets?_?at"?\s*[:=]\s*"?(\d{10})\b`)
	// "reset at 2026-11-27T15:00:00Z"
	stamp = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)`)
	// "retry-after: 120", "try again in 2 hours 5 minutes", "x-ratelimit-reset-requests: 1m30s"
	after    = regexp.MustCompile(`(?i)(retry[- _]?after|try again in|please retry in|resets? in|x-ratelimit-reset[a-z-]*)["':=\s]*`)
	duration = regexp.MustCompile(`^(\d+(?:\.\d+)?)\s*(milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)?[\s,and]*`)
)

// FromText reads an agent's error words (pure; fuzzed): a rate limit or
// not, and its reset when the words say one (a unix time, a timestamp, or
// a wait such as Retry-After's seconds, taken from now).
func FromText(msg string, now time.Time) Signal {
	if !limitWords.MatchString(msg) {
		return Signal{}
	}
	s := Signal{Limited: true}
	for _, re := range []*regexp.Regexp{pipeUnix, jsonUnix} {
		if m := re.FindStringSubmatch(msg); m != nil {
			if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				s.ResetsAt = time.Unix(n, 0)
				return s
			}
		}
	}
	if m := stamp.FindString(msg); m != "" {
		if t, err := time.Parse(time.RFC3339Nano, m); err == nil {
			s.ResetsAt = t
			return s
		}
	}
	if loc := after.FindStringIndex(msg); loc != nil {
		if d, ok := readDuration(msg[loc[1]:]); ok {
			s.ResetsAt = now.Add(d)
		}
	}
	return s
}

// maxWait bounds a wait read from words (a week's window and a day).
const maxWait = 8 * 24 * time.Hour

// readDuration reads "120" (seconds), "2 hours 5 minutes", "1m30s" from
// the start of s; at most a day's worth of parts.
func readDuration(s string) (time.Duration, bool) {
	var total time.Duration
	found := false
	for i := 0; i < 4; i++ {
		m := duration.FindStringSubmatch(s)
		if m == nil || m[0] == "" {
			break
		}
		n, err := strconv.ParseFloat(m[1], 64)
		if err != nil || n < 0 || n > 1e7 {
			break
		}
		unit := time.Second
		switch u := strings.ToLower(m[2]); {
		case u == "ms" || strings.HasPrefix(u, "milli"):
			unit = time.Millisecond
		case u == "m" || strings.HasPrefix(u, "min"):
			unit = time.Minute
		case strings.HasPrefix(u, "h"):
			unit = time.Hour
		case strings.HasPrefix(u, "d"):
			unit = 24 * time.Hour
		}
		if n*float64(unit) > float64(maxWait-total) {
			break // nonsense: no vendor window is that long
		}
		total += time.Duration(n * float64(unit))
		found = true
		s = s[len(m[0]):]
		if m[2] == "" {
			break // a bare number is the whole wait (seconds)
		}
	}
	return total, found && total > 0
}

// FromQuota reads a reset from the latest window the agent reported as
// reached (run.Quota's ResetsAt, unix seconds; 0: not said).
func FromQuota(limited bool, resetsAt int64) Signal {
	if !limited {
		return Signal{}
	}
	s := Signal{Limited: true}
	if resetsAt > 0 {
		s.ResetsAt = time.Unix(resetsAt, 0)
	}
	return s
}

// FromEvent reads one event of the run the way the shim watches its turn:
// a usage.updated whose window is reached (Claude Code's
// rate_limit_event, Codex's rate-limit windows, with their reset), or an
// error event's words (FromText). Any other payload says nothing.
func FromEvent(payload any, now time.Time) Signal {
	switch p := payload.(type) {
	case *run.Usage:
		if p != nil {
			return FromEvent(*p, now)
		}
	case run.Usage:
		if p.Quota != nil {
			return FromQuota(p.Quota.Limited, p.Quota.ResetsAt)
		}
	case *run.ErrorInfo:
		if p != nil {
			return FromEvent(*p, now)
		}
	case run.ErrorInfo:
		return FromText(p.Message+" "+p.Detail, now)
	}
	return Signal{}
}

// And is what two signals of the same turn say together: a limit if
// either says one, and the later of the resets they name, since the run
// cannot go on before every limit it hit has reset (Codex reports two
// windows; an agent's error often repeats, with less, what its reached
// window said). Order does not matter.
func (s Signal) And(o Signal) Signal {
	out := Signal{Limited: s.Limited || o.Limited}
	if !out.Limited {
		return out
	}
	for _, x := range []Signal{s, o} {
		if x.Limited && x.ResetsAt.After(out.ResetsAt) {
			out.ResetsAt = x.ResetsAt
		}
	}
	return out
}
