package park

import (
	"regexp"
	"strconv"
	"strings"
	"time"
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
