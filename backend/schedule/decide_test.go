package schedule

import (
	"testing"
	"time"
)

func TestDecide(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	at := func(s string) time.Time { return mustTime(t, s) }
	daily9 := Schedule{Cron: "0 9 * * *", Timezone: "America/New_York", Enabled: true, Missed: MissedRunOnce}
	skip := daily9
	skip.Missed = MissedSkip
	paused := daily9
	paused.Enabled = false
	hourly := Schedule{Cron: "0 * * * *", Timezone: "UTC", Enabled: true, Missed: MissedRunOnce}
	everyMinute := Schedule{Cron: "* * * * *", Timezone: "UTC", Enabled: true, Missed: MissedRunOnce}
	oneOff := Schedule{Timezone: "UTC", Enabled: true, Missed: MissedSkip}
	once := at("2026-12-01T18:00:00Z")
	oneOff.At = &once

	cases := []struct {
		name    string
		s       Schedule
		cursor  string
		now     string
		kind    Kind
		due     string
		missed  int
		catchUp bool
		next    string
	}{
		{"not yet due", daily9, "2026-03-02T10:00:00-05:00", "2026-03-03T08:59:00-05:00", Wait, "", 0, false, "2026-03-03T09:00:00-05:00"},
		{"due on time", daily9, "2026-03-02T09:00:00-05:00", "2026-03-03T09:00:00.02-05:00", Fire, "2026-03-03T09:00:00-05:00", 0, false, "2026-03-04T09:00:00-05:00"},
		{"a little late is still on time, even under skip", skip, "2026-03-02T09:00:00-05:00", "2026-03-03T09:01:30-05:00", Fire, "2026-03-03T09:00:00-05:00", 0, false, "2026-03-04T09:00:00-05:00"},
		{"3-day sleep, run once: one catch-up", daily9, "2026-03-02T09:00:00-05:00", "2026-03-05T12:00:00-05:00", Fire, "2026-03-05T09:00:00-05:00", 3, true, "2026-03-06T09:00:00-05:00"},
		{"3-day sleep, skip: none, three missed", skip, "2026-03-02T09:00:00-05:00", "2026-03-05T12:00:00-05:00", Miss, "2026-03-05T09:00:00-05:00", 3, false, "2026-03-06T09:00:00-05:00"},
		{"woke just after a due time after missing two", daily9, "2026-03-02T09:00:00-05:00", "2026-03-05T09:00:30-05:00", Fire, "2026-03-05T09:00:00-05:00", 2, false, "2026-03-06T09:00:00-05:00"},
		{"hourly over 3 days: one firing, never a burst", hourly, "2026-03-02T09:00:00Z", "2026-03-05T09:30:00Z", Fire, "2026-03-05T09:00:00Z", 72, true, "2026-03-05T10:00:00Z"},
		{"clock set backwards: the handled due time is not fired again", daily9, "2026-03-03T09:00:00-05:00", "2026-03-03T08:00:00-05:00", Wait, "", 0, false, "2026-03-04T09:00:00-05:00"},
		{"clock back a day: waits for the first due time after the cursor", daily9, "2026-03-03T09:00:00-05:00", "2026-03-02T09:00:00-05:00", Wait, "", 0, false, "2026-03-04T09:00:00-05:00"},
		{"paused: nothing, no next", paused, "2026-03-02T09:00:00-05:00", "2026-03-05T12:00:00-05:00", Wait, "", 0, false, ""},
		{"one-off on time", oneOff, "2026-11-30T00:00:00Z", "2026-12-01T18:00:01Z", Fire, "2026-12-01T18:00:00Z", 0, false, ""},
		{"one-off missed, skip", oneOff, "2026-11-30T00:00:00Z", "2026-12-02T18:00:00Z", Miss, "2026-12-01T18:00:00Z", 1, false, ""},
		{"one-off spent", oneOff, "2026-12-01T18:00:00Z", "2026-12-05T18:00:00Z", Wait, "", 0, false, ""},
		// 144,000 due times: more than are counted one by one. The firing
		// is still the latest, so waking again fires nothing more.
		{"every minute over 100 days off: one catch-up, not two", everyMinute, "2026-01-01T00:00:00Z", "2026-04-11T00:05:30Z", Fire, "2026-04-11T00:05:00Z", maxCount, false, "2026-04-11T00:06:00Z"},
		{"across the NY spring change after sleep", daily9, "2026-03-06T09:00:00-05:00", "2026-03-10T10:00:00-04:00", Fire, "2026-03-10T09:00:00-04:00", 4, true, "2026-03-11T09:00:00-04:00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, err := WhenOf(c.s)
			if err != nil {
				t.Fatal(err)
			}
			s := c.s
			s.Cursor = at(c.cursor)
			d := Decide(s, w, at(c.now))
			if d.Kind != c.kind || d.Missed != c.missed || d.CatchUp != c.catchUp {
				t.Fatalf("got %+v, want kind %s missed %d catch-up %v", d, c.kind, c.missed, c.catchUp)
			}
			if c.due != "" && !d.Due.Equal(at(c.due)) {
				t.Errorf("due %s, want %s", d.Due.In(ny), c.due)
			}
			if c.kind == Wait && !d.Cursor.Equal(s.Cursor) {
				t.Errorf("a wait moved the cursor to %s", d.Cursor)
			}
			if c.kind != Wait && !d.Cursor.Equal(d.Due) {
				t.Errorf("cursor %s, want the due time", d.Cursor)
			}
			if (c.next == "") != d.Next.IsZero() || c.next != "" && !d.Next.Equal(at(c.next)) {
				t.Errorf("next %s, want %q", d.Next, c.next)
			}
			// Acting on the decision and waking again at the same time
			// does nothing: at most one firing per wake-up.
			if c.kind != Wait {
				s.Cursor = d.Cursor
				if again := Decide(s, w, at(c.now)); again.Kind != Wait {
					t.Errorf("second wake-up at the same time: %+v", again)
				}
			}
		})
	}
}

func TestOverlap(t *testing.T) {
	cases := []struct {
		prev   string
		active bool
		skip   bool
	}{
		{"", false, false},
		{"run_1", false, false},
		{"run_1", true, true},
	}
	for _, c := range cases {
		skip, reason := Overlap(c.prev, c.active)
		if skip != c.skip || skip != (reason != "") {
			t.Errorf("Overlap(%q, %v) = %v %q", c.prev, c.active, skip, reason)
		}
	}
}

func TestDue(t *testing.T) {
	a := mustTime(t, "2026-01-01T10:00:00Z")
	b := mustTime(t, "2026-01-01T09:00:00Z")
	if got := Due([]time.Time{{}, a, b, {}}); !got.Equal(b) {
		t.Errorf("Due = %s", got)
	}
	if got := Due([]time.Time{{}}); !got.IsZero() {
		t.Errorf("Due of none = %s", got)
	}
}
