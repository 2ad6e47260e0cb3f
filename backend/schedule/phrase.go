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

// The phrase patterns are compiled on first use: only the core parses
// phrases, and every hermesdesk process links this package
// (docs/ARCHITECTURE.md §Memory).
type phrasePatterns struct{ every, at, once, monthly *regexp.Regexp }

var phraseREs = sync.OnceValue(func() (r phrasePatterns) {
	r.every = regexp.MustCompile(`^every\s+(?:(\d+)\s+)?(minute|minutes|min|mins|hour|hours|h)$`)
	r.at = regexp.MustCompile(`^(.*?)\s*(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$`)
	r.once = regexp.MustCompile(`^(?:once\s+)?(?:on\s+)?(\d{4}-\d{2}-\d{2})(?:\s+at\s+|\s+|t)(\d{1,2}):(\d{2})$`)
	r.monthly = regexp.MustCompile(`^(?:every\s+month|monthly)\s+on\s+(?:the\s+|day\s+)?(\d{1,2})(?:st|nd|rd|th)?$`)
	return r
})

var dayNames = map[string]int{
	"sunday": 0, "sun": 0, "sundays": 0, "monday": 1, "mon": 1, "mondays": 1,
	"tuesday": 2, "tue": 2, "tues": 2, "tuesdays": 2, "wednesday": 3, "wed": 3, "wednesdays": 3,
	"thursday": 4, "thu": 4, "thur": 4, "thurs": 4, "thursdays": 4, "friday": 5, "fri": 5, "fridays": 5,
	"saturday": 6, "sat": 6, "saturdays": 6,
}

// Phrase turns a plain phrase into a cron expression or a one-off time in
// loc. ok is false when text is not a phrase (it may still be a cron
// expression); err is set when it looks like a phrase but is wrong.
func Phrase(text string, loc *time.Location) (expr string, at *time.Time, ok bool, err error) {
	p := strings.ToLower(strings.Join(strings.Fields(text), " "))
	p = strings.TrimSuffix(p, ".")
	if p == "" {
		return "", nil, false, nil
	}
	if m := phraseREs().once.FindStringSubmatch(p); m != nil {
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		d, e := time.ParseInLocation("2006-01-02", m[1], loc)
		if e != nil || h > 23 || mi > 59 {
			return "", nil, true, invalid("%q is not a date and time (write it like 2026-12-01 at 18:00)", text)
		}
		t := time.Date(d.Year(), d.Month(), d.Day(), h, mi, 0, 0, loc)
		return "", &t, true, nil
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
	h, _ := strconv.Atoi(m[2])
	mi := 0
	if m[3] != "" {
		mi, _ = strconv.Atoi(m[3])
	}
	switch m[4] {
	case "am":
		if h == 12 {
			h = 0
		} else if h > 12 {
			h = 99
		}
	case "pm":
		if h < 12 {
			h += 12
		} else if h > 12 {
			h = 99
		}
	}
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
	if h > 23 || mi > 59 {
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
// one-off time into a checked When in zone tz.
func Resolve(text string, at *time.Time, tz string) (When, error) {
	loc, err := LoadZone(tz)
	if err != nil {
		return When{}, err
	}
	if at == nil {
		expr, once, ok, err := Phrase(text, loc)
		if err != nil {
			return When{}, err
		}
		if ok {
			return ParseWhen(expr, once, tz)
		}
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(text)), "every ") || strings.HasPrefix(strings.ToLower(strings.TrimSpace(text)), "once") {
			return When{}, invalid("%q is not a phrase Hermes Desk knows; try \"every weekday at 9:00\", \"every 2 hours\" or \"once on 2026-12-01 at 18:00\"", text)
		}
	}
	return ParseWhen(text, at, tz)
}
