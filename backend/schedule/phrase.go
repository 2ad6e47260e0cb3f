package schedule

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Plain phrases the UI and the CLI accept, turned into a cron expression
// (or a one-off time, which cron cannot say). Anything else is tried as a
// cron expression. The list is short on purpose: the preview of the next
// five firings shows the person what their phrase means.
//
//	every minute · every 15 minutes · every hour · every 2 hours
//	every day at 9:00 · daily at 18:30 · every weekday at 9:00 · weekdays 9:00
//	every weekend at 10:00 · every monday at 8:30 · every mon, wed, fri at 8:30
//	every month on the 1st at 9:00 · once on 2026-12-01 at 18:00
//
// and one-offs relative to now (the clock is an argument, so tests pin it):
//
//	in 2 minutes · in an hour · in 3 days · today at 15:00 · tomorrow at 9am
//	once at 03:30 (the next 03:30) · once on friday at 3:20am
//	once on 2026-12-01 at 3:20am
//
// Examples is what an unknown phrase is answered with: every one of them
// parses (TestUnknownPhraseAnswersInWords).

// The phrase patterns are compiled on first use: only the core parses
// phrases, and every hermesdesk process links this package
// (docs/ARCHITECTURE.md §Memory).
type phrasePatterns struct{ every, at, once, monthly, in, day *regexp.Regexp }

var phraseREs = sync.OnceValue(func() (r phrasePatterns) {
	r.every = regexp.MustCompile(`^every\s+(?:(\d+)\s+)?(minute|minutes|min|mins|hour|hours|h)$`)
	r.at = regexp.MustCompile(`^(.*?)\s*(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$`)
	r.once = regexp.MustCompile(`^(?:once\s+)?(?:on\s+)?(\d{4}-\d{2}-\d{2})(?:\s+at\s+|\s+|t)(\d{1,2}):(\d{2})\s*(am|pm)?$`)
	r.monthly = regexp.MustCompile(`^(?:every\s+month|monthly)\s+on\s+(?:the\s+|day\s+)?(\d{1,2})(?:st|nd|rd|th)?$`)
	r.in = regexp.MustCompile(`^(?:once\s+)?in\s+(\d+|a|an|one)\s+(minute|minutes|min|mins|hour|hours|h|hr|hrs|day|days)$`)
	// A one-off on a named day (or the next such time): "once at 3:30",
	// "today at 15:00", "once tomorrow at 9am", "once on friday at 8".
	r.day = regexp.MustCompile(`^(?:(once)\s+)?(?:(today|tomorrow|on\s+[a-z]+|[a-z]+day)\s+)?at\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$`)
	return r
})

// Examples are phrases that work, for the answer to one that does not.
var Examples = []string{"every weekday at 9:00", "every 2 hours", "in 10 minutes", "tomorrow at 9am",
	"once at 15:30", "once on 2026-12-01 at 18:00"}

// exampleList is Examples in words: "a", "b" or "c".
func exampleList() string {
	q := make([]string, len(Examples))
	for i, e := range Examples {
		q[i] = strconv.Quote(e)
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// hourMinute reads a time of day: h and m as written, with am/pm.
func hourMinute(hs, ms, ampm string) (h, m int, ok bool) {
	h, _ = strconv.Atoi(hs)
	if ms != "" {
		m, _ = strconv.Atoi(ms)
	}
	switch ampm {
	case "am":
		if h < 1 || h > 12 {
			return 0, 0, false
		}
		if h == 12 {
			h = 0
		}
	case "pm":
		if h < 1 || h > 12 {
			return 0, 0, false
		}
		if h < 12 {
			h += 12
		}
	}
	return h, m, h <= 23 && m <= 59
}

// oneOff reads the one-off phrases relative to now in loc; ok is false
// when p is none of them.
func oneOff(p, text string, loc *time.Location, now time.Time) (at *time.Time, ok bool, err error) {
	now = now.In(loc)
	if m := phraseREs().in.FindStringSubmatch(p); m != nil {
		n, e := strconv.Atoi(m[1])
		if e != nil {
			n = 1 // a, an, one
		}
		unit := time.Minute
		switch {
		case strings.HasPrefix(m[2], "h"):
			unit = time.Hour
		case strings.HasPrefix(m[2], "d"):
			unit = 24 * time.Hour
		}
		if n < 1 || time.Duration(n) > 366*24*time.Hour/unit {
			return nil, true, invalid("%q: say a time from 1 minute to a year ahead", text)
		}
		t := now.Add(time.Duration(n) * unit).Truncate(time.Second)
		if unit == 24*time.Hour {
			t = now.AddDate(0, 0, n).Truncate(time.Second) // the same wall time, across clock changes
		}
		return &t, true, nil
	}
	m := phraseREs().day.FindStringSubmatch(p)
	if m == nil || (m[1] == "" && m[2] == "") {
		// "at 9" alone is not a one-off unless it says once: plain
		// "9:00" stays an unknown phrase rather than a guess.
		return nil, false, nil
	}
	h, mi, okTime := hourMinute(m[3], m[4], m[5])
	if !okTime {
		return nil, true, invalid("%q: the time of day must be like 9:00, 18:30 or 3:20am", text)
	}
	at1 := func(day time.Time) time.Time {
		return time.Date(day.Year(), day.Month(), day.Day(), h, mi, 0, 0, loc)
	}
	day := strings.TrimPrefix(m[2], "on ")
	var t time.Time
	switch day {
	case "":
		if t = at1(now); !t.After(now) {
			t = at1(now.AddDate(0, 0, 1))
		}
	case "today":
		if t = at1(now); !t.After(now) {
			return nil, true, invalid("%q: %s today has passed; say \"tomorrow at %s\" or \"once at %s\"",
				text, t.Format("15:04"), t.Format("15:04"), t.Format("15:04"))
		}
	case "tomorrow":
		t = at1(now.AddDate(0, 0, 1))
	default:
		// A weekday is a one-off only when it says once: "monday at 8"
		// and "on fridays at 5pm" stay weekly.
		d, known := dayNames[day]
		if !known || m[1] == "" {
			return nil, false, nil
		}
		ahead := (d - int(now.Weekday()) + 7) % 7
		if t = at1(now.AddDate(0, 0, ahead)); !t.After(now) {
			t = at1(now.AddDate(0, 0, ahead+7))
		}
	}
	return &t, true, nil
}

var dayNames = map[string]int{
	"sunday": 0, "sun": 0, "sundays": 0, "monday": 1, "mon": 1, "mondays": 1,
	"tuesday": 2, "tue": 2, "tues": 2, "tuesdays": 2, "wednesday": 3, "wed": 3, "wednesdays": 3,
	"thursday": 4, "thu": 4, "thur": 4, "thurs": 4, "thursdays": 4, "friday": 5, "fri": 5, "fridays": 5,
	"saturday": 6, "sat": 6, "saturdays": 6,
}

// Phrase turns a plain phrase into a cron expression or a one-off time in
// loc; relative one-offs ("in 2 minutes", "tomorrow at 9am") count from
// now. ok is false when text is not a phrase (it may still be a cron
// expression); err is set when it looks like a phrase but is wrong.
func Phrase(text string, loc *time.Location, now time.Time) (expr string, at *time.Time, ok bool, err error) {
	p := strings.ToLower(strings.Join(strings.Fields(text), " "))
	p = strings.TrimSuffix(p, ".")
	if p == "" {
		return "", nil, false, nil
	}
	if m := phraseREs().once.FindStringSubmatch(p); m != nil {
		h, mi, okTime := hourMinute(m[2], m[3], m[4])
		d, e := time.ParseInLocation("2006-01-02", m[1], loc)
		if e != nil || !okTime {
			return "", nil, true, invalid("%q is not a date and time (write it like 2026-12-01 at 18:00)", text)
		}
		t := time.Date(d.Year(), d.Month(), d.Day(), h, mi, 0, 0, loc)
		return "", &t, true, nil
	}
	if at, ok, err := oneOff(p, text, loc, now); ok || err != nil {
		return "", at, ok, err
	}
	if m := phraseREs().every.FindStringSubmatch(p); m != nil {
		n := 1
		if m[1] != "" {
			n, _ = strconv.Atoi(m[1])
		}
		if strings.HasPrefix(m[2], "h") {
			if n < 1 || n > 23 {
				return "", nil, true, invalid("every N hours needs N from 1 to 23")
			}
			if n == 1 {
				return "0 * * * *", nil, true, nil
			}
			return fmt.Sprintf("0 */%d * * *", n), nil, true, nil
		}
		if n < 1 || n > 59 {
			return "", nil, true, invalid("every N minutes needs N from 1 to 59")
		}
		if n == 1 {
			return "* * * * *", nil, true, nil
		}
		return fmt.Sprintf("*/%d * * * *", n), nil, true, nil
	}
	switch p {
	case "hourly":
		return "0 * * * *", nil, true, nil
	}
	m := phraseREs().at.FindStringSubmatch(p)
	if m == nil {
		return "", nil, false, nil
	}
	days := strings.TrimSpace(m[1])
	h, mi, okTime := hourMinute(m[2], m[3], m[4])
	dow, dom, isPhrase := "", "*", true
	switch days {
	case "every day", "daily", "everyday", "each day":
		dow = "*"
	case "every weekday", "weekdays", "on weekdays", "every workday":
		dow = "1-5"
	case "every weekend", "weekends", "on weekends", "every weekend day":
		dow = "0,6"
	default:
		if mm := phraseREs().monthly.FindStringSubmatch(days); mm != nil {
			d, _ := strconv.Atoi(mm[1])
			if d < 1 || d > 31 {
				return "", nil, true, invalid("day of the month must be from 1 to 31")
			}
			dow, dom = "*", strconv.Itoa(d)
			break
		}
		dow, isPhrase = weekdays(days)
	}
	if !isPhrase {
		return "", nil, false, nil
	}
	if !okTime {
		return "", nil, true, invalid("%q: the time of day must be like 9:00 or 18:30", text)
	}
	return fmt.Sprintf("%d %d %s * %s", mi, h, dom, dow), nil, true, nil
}

// weekdays reads "every monday", "mondays", "every mon, wed and fri".
func weekdays(s string) (string, bool) {
	s = strings.TrimPrefix(s, "every ")
	s = strings.TrimPrefix(s, "on ")
	s = strings.NewReplacer(",", " ", " and ", " ", "&", " ").Replace(s)
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return "", false
	}
	seen := map[int]bool{}
	var out []string
	for _, f := range fields {
		d, ok := dayNames[f]
		if !ok {
			return "", false
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, strconv.Itoa(d))
		}
	}
	return strings.Join(out, ","), true
}

// Resolve turns what a person wrote (a phrase or a cron expression) or a
// one-off time into a checked When in zone tz; relative phrases count
// from now.
func Resolve(text string, at *time.Time, tz string, now time.Time) (When, error) {
	loc, err := LoadZone(tz)
	if err != nil {
		return When{}, err
	}
	if at == nil {
		expr, once, ok, err := Phrase(text, loc, now)
		if err != nil {
			return When{}, err
		}
		if ok {
			return ParseWhen(expr, once, tz)
		}
		if t := strings.TrimSpace(text); t != "" && !looksLikeCron(t) {
			// Words that are no phrase: answer in words, not in cron's.
			return When{}, invalid("Hermes Desk does not understand %q. Write it like %s", text, exampleList())
		}
	}
	return ParseWhen(text, at, tz)
}

// looksLikeCron: an @descriptor, or fields that start like cron's (a
// digit or *), so a cron mistake gets cron's answer.
func looksLikeCron(s string) bool {
	if strings.HasPrefix(s, "@") {
		return true
	}
	f := strings.Fields(s)
	return len(f) >= 3 && strings.ContainsAny(f[0][:1], "0123456789*") && strings.ContainsAny(f[1][:1], "0123456789*")
}
