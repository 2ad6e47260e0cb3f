package schedule

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPhrases(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	cases := []struct{ in, cron, at string }{
		{"every weekday at 9:00", "0 9 * * 1-5", ""},
		{"Weekdays 9:00", "0 9 * * 1-5", ""},
		{"every 2 hours", "0 */2 * * *", ""},
		{"every hour", "0 * * * *", ""},
		{"hourly", "0 * * * *", ""},
		{"every 15 minutes", "*/15 * * * *", ""},
		{"every minute", "* * * * *", ""},
		{"every day at 18:30", "30 18 * * *", ""},
		{"daily at 7am", "0 7 * * *", ""},
		{"every day at 12am", "0 0 * * *", ""},
		{"every day at 12pm", "0 12 * * *", ""},
		{"every day at 6:15 pm", "15 18 * * *", ""},
		{"every weekend at 10:00", "0 10 * * 0,6", ""},
		{"every monday at 8:30", "30 8 * * 1", ""},
		{"every mon, wed and fri at 8:30", "30 8 * * 1,3,5", ""},
		{"fridays at 17:00", "0 17 * * 5", ""},
		{"every month on the 1st at 9:00", "0 9 1 * *", ""},
		{"monthly on day 15 at 9", "0 9 15 * *", ""},
		{"once on 2026-12-01 at 18:00", "", "2026-12-01T18:00:00+01:00"},
		{"on 2026-07-01 at 8:05", "", "2026-07-01T08:05:00+02:00"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			expr, at, ok, err := Phrase(c.in, berlin, phraseNow(t))
			if err != nil || !ok {
				t.Fatalf("Phrase(%q) = ok %v, err %v", c.in, ok, err)
			}
			if expr != c.cron {
				t.Errorf("cron = %q, want %q", expr, c.cron)
			}
			if c.at == "" && at != nil || c.at != "" && (at == nil || !at.Equal(mustTime(t, c.at))) {
				t.Errorf("at = %v, want %q", at, c.at)
			}
		})
	}
}

func TestPhraseNotAPhrase(t *testing.T) {
	for _, in := range []string{"0 9 * * 1-5", "*/5 * * * *", "@daily", ""} {
		if _, _, ok, err := Phrase(in, time.UTC, phraseNow(t)); ok || err != nil {
			t.Errorf("Phrase(%q) = ok %v, err %v: want not a phrase", in, ok, err)
		}
	}
}

func TestResolve(t *testing.T) {
	good := []string{"every weekday at 9:00", "0 9 * * 1-5", "@hourly", "once on 2026-12-01 at 18:00", "@every 1m", "@every 90s"}
	for _, in := range good {
		if _, err := Resolve(in, nil, "Europe/Berlin", phraseNow(t)); err != nil {
			t.Errorf("Resolve(%q): %v", in, err)
		}
	}
	bad := []string{"every day at 25:00", "every 90 minutes", "every 30 hours", "once on 2026-02-30 at 10:00",
		"every blue moon", "every fortnight at 9:00", "monthly on day 40 at 9:00", "0 9 * *", "",
		// Faster than once a minute: robfig/cron reads each as every second.
		"@every 1s", "@every 0s", "@every 1ns", "@every -5s", "@every 59s", "0s", "1ns", "-5s",
		"today at 13pm", "once at 25:00", "in 0 minutes", "in 400 days", "once today at 11:00"}
	for _, in := range bad {
		if _, err := Resolve(in, nil, "UTC", phraseNow(t)); !errors.Is(err, ErrInvalid) {
			t.Errorf("Resolve(%q) err = %v, want ErrInvalid", in, err)
		}
	}
}

// phraseNow is the tests' clock: Wednesday 2026-03-04 12:00 in Berlin.
func phraseNow(t *testing.T) time.Time { return mustTime(t, "2026-03-04T12:00:00+01:00") }

// TestRelativePhrases: one-offs relative to now, with a fixed clock
// (issue 23 item 16: these were refused in cron jargon).
func TestRelativePhrases(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	cases := []struct{ in, at string }{
		{"in 2 minutes", "2026-03-04T12:02:00+01:00"},
		{"in a minute", "2026-03-04T12:01:00+01:00"},
		{"in an hour", "2026-03-04T13:00:00+01:00"},
		{"once in 3 hours", "2026-03-04T15:00:00+01:00"},
		{"in 30 days", "2026-04-03T12:00:00+02:00"}, // the same wall time across the spring change
		{"tomorrow at 9am", "2026-03-05T09:00:00+01:00"},
		{"Tomorrow at 9", "2026-03-05T09:00:00+01:00"},
		{"once today at 15:00", "2026-03-04T15:00:00+01:00"},
		{"today at 3pm", "2026-03-04T15:00:00+01:00"},
		{"once at 03:30", "2026-03-05T03:30:00+01:00"}, // passed today: the next one
		{"once at 18:45", "2026-03-04T18:45:00+01:00"},
		{"once tomorrow at 3:20am", "2026-03-05T03:20:00+01:00"},
		{"once on friday at 3:20am", "2026-03-06T03:20:00+01:00"},
		{"once wednesday at 11am", "2026-03-11T11:00:00+01:00"}, // today's has passed: next week
		{"once on 2026-12-01 at 3:20am", "2026-12-01T03:20:00+01:00"},
		{"once at 12am", "2026-03-05T00:00:00+01:00"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			expr, at, ok, err := Phrase(c.in, berlin, phraseNow(t))
			if err != nil || !ok || expr != "" || at == nil {
				t.Fatalf("Phrase(%q) = %q %v ok %v, err %v", c.in, expr, at, ok, err)
			}
			if !at.Equal(mustTime(t, c.at)) {
				t.Errorf("at %s, want %s", at, c.at)
			}
			if w, err := Resolve(c.in, nil, "Europe/Berlin", phraseNow(t)); err != nil || w.At == nil {
				t.Errorf("Resolve: %+v %v", w, err)
			}
		})
	}
	// Weekly phrases stay weekly without "once".
	for in, want := range map[string]string{"monday at 8:30": "30 8 * * 1", "on fridays at 5pm": "0 17 * * 5"} {
		if expr, _, ok, err := Phrase(in, berlin, phraseNow(t)); !ok || err != nil || expr != want {
			t.Errorf("Phrase(%q) = %q %v %v, want %q", in, expr, ok, err, want)
		}
	}
}

// TestUnknownPhraseAnswersInWords: words that are no phrase get an answer
// in words with examples, not cron's grammar; and every example works.
func TestUnknownPhraseAnswersInWords(t *testing.T) {
	_, err := Resolve("next full moon", nil, "UTC", phraseNow(t))
	if !errors.Is(err, ErrInvalid) || strings.Contains(err.Error(), "expected") || !strings.Contains(err.Error(), `"tomorrow at 9am"`) {
		t.Fatalf("answer %v", err)
	}
	for _, ex := range Examples {
		if _, err := Resolve(ex, nil, "Europe/Berlin", phraseNow(t)); err != nil {
			t.Errorf("example %q does not work: %v", ex, err)
		}
	}
}

// FuzzPhrase: any text gets a phrase, a plain error or "not a phrase" —
// never a panic — and a relative one-off is in the future.
func FuzzPhrase(f *testing.F) {
	for _, s := range append(append([]string{}, Examples...), "in 2 minutes", "once at 3:20am", "today at 12pm", "once on 2026-02-30 at 9") {
		f.Add(s)
	}
	now := time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		_, at, ok, err := Phrase(s, time.UTC, now)
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: %v", s, err)
		}
		p := strings.ToLower(s)
		if ok && at != nil && (strings.Contains(p, "in ") || strings.Contains(p, "today") || strings.Contains(p, "tomorrow")) &&
			!strings.Contains(p, "-") && !at.After(now) {
			t.Fatalf("%q: %s is not after now", s, at)
		}
	})
}
