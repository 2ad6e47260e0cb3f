package schedule

import (
	"errors"
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
			expr, at, ok, err := Phrase(c.in, berlin)
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
		if _, _, ok, err := Phrase(in, time.UTC); ok || err != nil {
			t.Errorf("Phrase(%q) = ok %v, err %v: want not a phrase", in, ok, err)
		}
	}
}

func TestResolve(t *testing.T) {
	good := []string{"every weekday at 9:00", "0 9 * * 1-5", "@hourly", "once on 2026-12-01 at 18:00"}
	for _, in := range good {
		if _, err := Resolve(in, nil, "Europe/Berlin"); err != nil {
			t.Errorf("Resolve(%q): %v", in, err)
		}
	}
	bad := []string{"every day at 25:00", "every 90 minutes", "every 30 hours", "once on 2026-02-30 at 10:00",
		"every blue moon", "every fortnight at 9:00", "monthly on day 40 at 9:00", "0 9 * *", ""}
	for _, in := range bad {
		if _, err := Resolve(in, nil, "UTC"); !errors.Is(err, ErrInvalid) {
			t.Errorf("Resolve(%q) err = %v, want ErrInvalid", in, err)
		}
	}
}
