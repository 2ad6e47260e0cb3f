package schedule

import (
	"errors"
	"testing"
	"time"
)

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Next due times across DST changes and month ends: each case lists the
// due times after From, in the zone's own offsets.
func TestNextAcrossDSTAndMonthEnds(t *testing.T) {
	cases := []struct {
		name, tz, expr, from string
		want                 []string
	}{
		{"NY spring forward: a 2:30 job runs once, at 3:30 EDT", "America/New_York", "30 2 * * *", "2026-03-07T12:00:00-05:00",
			[]string{"2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"}},
		{"NY fall back: a 1:30 job runs once", "America/New_York", "30 1 * * *", "2026-10-31T12:00:00-04:00",
			[]string{"2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"}},
		{"NY fall back from inside the repeated hour: not again", "America/New_York", "30 1 * * *", "2026-11-01T01:30:00-04:00",
			[]string{"2026-11-02T01:30:00-05:00"}},
		{"NY weekday 9:00 over the spring change keeps 9:00 local", "America/New_York", "0 9 * * 1-5", "2026-03-06T10:00:00-05:00",
			[]string{"2026-03-09T09:00:00-04:00", "2026-03-10T09:00:00-04:00"}},
		{"Berlin spring forward: 2:30 runs at 3:30 CEST", "Europe/Berlin", "30 2 * * *", "2026-03-28T12:00:00+01:00",
			[]string{"2026-03-29T03:30:00+02:00", "2026-03-30T02:30:00+02:00"}},
		{"Berlin fall back: 2:30 runs once", "Europe/Berlin", "30 2 * * *", "2026-10-24T12:00:00+02:00",
			[]string{"2026-10-25T02:30:00+01:00", "2026-10-26T02:30:00+01:00"}},
		{"Berlin every hour fires through the repeated hour (real time)", "Europe/Berlin", "0 * * * *", "2026-10-25T00:30:00+02:00",
			[]string{"2026-10-25T01:00:00+02:00", "2026-10-25T02:00:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T03:00:00+01:00"}},
		{"Berlin every 2 hours on the spring change", "Europe/Berlin", "0 */2 * * *", "2026-03-29T00:30:00+01:00",
			[]string{"2026-03-29T03:00:00+02:00", "2026-03-29T04:00:00+02:00"}},
		{"31st skips short months", "UTC", "0 9 31 * *", "2026-01-31T10:00:00Z",
			[]string{"2026-03-31T09:00:00Z", "2026-05-31T09:00:00Z"}},
		{"leap day", "UTC", "0 0 29 2 *", "2026-01-01T00:00:00Z",
			[]string{"2028-02-29T00:00:00Z"}},
		{"month end rolls over the year", "Europe/Berlin", "0 18 1 * *", "2026-12-01T18:00:00+01:00",
			[]string{"2027-01-01T18:00:00+01:00"}},
		{"@every steps in real time", "UTC", "@every 90m", "2026-01-01T00:00:00Z",
			[]string{"2026-01-01T01:30:00Z", "2026-01-01T03:00:00Z"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, err := ParseWhen(c.expr, nil, c.tz)
			if err != nil {
				t.Fatal(err)
			}
			got := w.NextN(mustTime(t, c.from), len(c.want))
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if !got[i].Equal(mustTime(t, c.want[i])) {
					t.Errorf("due %d = %s, want %s", i, got[i].Format(time.RFC3339), c.want[i])
				}
			}
		})
	}
}

func TestOneOffIsDueOnce(t *testing.T) {
	at := mustTime(t, "2026-12-01T18:00:00+01:00")
	w, err := ParseWhen("", &at, "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Next(at.Add(-time.Hour)); !got.Equal(at) {
		t.Errorf("before: %v", got)
	}
	if got := w.Next(at); !got.IsZero() {
		t.Errorf("after it fired: %v, want none", got)
	}
}

func TestParseWhenRefuses(t *testing.T) {
	at := time.Now()
	for _, c := range []struct {
		name, expr, tz string
		at             *time.Time
	}{
		{"empty", "", "UTC", nil},
		{"garbage", "every blue moon", "UTC", nil},
		{"six fields", "0 0 9 * * *", "UTC", nil},
		{"out of range", "61 * * * *", "UTC", nil},
		{"never", "0 0 30 2 *", "UTC", nil},
		{"both", "* * * * *", "UTC", &at},
		{"zone in expression", "CRON_TZ=UTC * * * * *", "UTC", nil},
		{"unknown zone", "* * * * *", "Mars/Olympus", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ParseWhen(c.expr, c.at, c.tz); !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}
