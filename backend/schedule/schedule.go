// Package schedule is Hermes Desk's scheduler (docs/ARCHITECTURE.md
// §Schedules): what a schedule is, when it is due next (cron expressions
// parsed and stepped by github.com/robfig/cron/v3, one-offs kept as a time),
// what to do at a wake-up (pure decisions over an injectable clock), and the
// loop that fires due schedules as ordinary runs in the data dir's
// supervisor, window open or not.
package schedule

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

// Target says where a schedule's firings go.
type Target string

const (
	// TargetFresh starts a new session for each firing.
	TargetFresh Target = "fresh"
	// TargetContinue appends each firing to the schedule's own session.
	TargetContinue Target = "continue"
)

// Missed is the policy for firings missed while the machine slept, the
// supervisor was not running or the clock jumped.
type Missed string

const (
	// MissedRunOnce runs once at the next opportunity, however many were missed.
	MissedRunOnce Missed = "run_once"
	// MissedSkip records the missed firings and waits for the next due time.
	MissedSkip Missed = "skip"
)

// Schedule is one stored schedule.
type Schedule struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Prompt    string `json:"prompt"`
	Agent     string `json:"agent"`
	Model     string `json:"model,omitempty"`
	ProjectID string `json:"project_id"`
	// Phrase is what the person typed ("every weekday at 9:00"), kept for display.
	Phrase string `json:"phrase,omitempty"`
	// Cron is a standard 5-field cron expression (or @descriptor); empty
	// for a one-off.
	Cron string `json:"cron,omitempty"`
	// At is a one-off's time (cron cannot say "once").
	At *time.Time `json:"at,omitempty"`
	// Timezone is the IANA zone the expression is read in ("Local": the
	// machine's).
	Timezone string `json:"timezone"`
	Target   Target `json:"target"`
	// SessionID is the continuing session (TargetContinue), made at the
	// first firing.
	SessionID string `json:"session_id,omitempty"`
	Missed    Missed `json:"missed"`
	Enabled   bool   `json:"enabled"`
	// Cursor is the latest due time already handled (fired, skipped or
	// missed). Due times are computed after it, so a clock set backwards
	// never fires one twice.
	Cursor    time.Time `json:"-"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// ErrInvalid marks bad schedule input (the one vocabulary's invalid
// class, docs/ARCHITECTURE.md §Errors); the text after it is safe to show.
var ErrInvalid = errdefs.ErrInvalid

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// When is a parsed "when": either Cron (in Location) or a one-off At.
type When struct {
	Cron     string
	At       *time.Time
	Location *time.Location
	sched    cron.Schedule
	// wall: step the expression in wall-clock time, then place it in
	// Location (see Next).
	wall bool
}

const allHours = 1<<24 - 1

// MinInterval is the shortest time between two firings: cron's own
// granularity, and the fastest "every N minutes" says.
const MinInterval = time.Minute

var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// LoadZone returns the named IANA zone; "" and "Local" are the machine's.
func LoadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, invalid("unknown time zone %q", name)
	}
	return loc, nil
}

// ParseWhen checks a cron expression (or a one-off time) in zone tz.
func ParseWhen(expr string, at *time.Time, tz string) (When, error) {
	loc, err := LoadZone(tz)
	if err != nil {
		return When{}, err
	}
	expr = strings.TrimSpace(expr)
	switch {
	case expr != "" && at != nil:
		return When{}, invalid("give either a cron expression or a one-off time, not both")
	case at != nil:
		t := at.In(loc)
		return When{At: &t, Location: loc}, nil
	case expr == "":
		return When{}, invalid("say when: a cron expression, a phrase like \"every weekday at 9:00\", or a one-off time")
	}
	if strings.HasPrefix(expr, "TZ=") || strings.HasPrefix(expr, "CRON_TZ=") {
		return When{}, invalid("set the time zone separately, not in the expression")
	}
	s, err := parser.Parse(expr)
	if err != nil {
		return When{}, invalid("%q is not a cron expression (%v)", expr, err)
	}
	if every, ok := s.(cron.ConstantDelaySchedule); ok && every.Delay < MinInterval {
		// robfig/cron rounds "@every 0s", "1ns" and "-5s" up to one
		// second: a session and a run each second (issue 21 item 11).
		return When{}, invalid("%q is too often: a schedule runs at most once a minute (try \"@every 1m\" or \"every 5 minutes\")", expr)
	}
	w := When{Cron: expr, Location: loc, sched: s}
	if spec, ok := s.(*cron.SpecSchedule); ok {
		spec.Location = loc
		if spec.Hour&allHours != allHours {
			// A fixed time of day steps in wall-clock time (see Next).
			spec.Location = time.UTC
			w.wall = true
		}
	}
	if w.Next(time.Date(2000, 1, 1, 0, 0, 0, 0, loc)).IsZero() {
		return When{}, invalid("%q never fires", expr)
	}
	return w, nil
}

// WhenOf is a stored schedule's When. Stored schedules were validated; an
// error here means the zone database changed under them.
func WhenOf(s Schedule) (When, error) { return ParseWhen(s.Cron, s.At, s.Timezone) }

// Next is the first due time strictly after t (zero: none).
func (w When) Next(t time.Time) time.Time {
	if w.At != nil {
		if w.At.After(t) {
			return *w.At
		}
		return time.Time{}
	}
	if w.sched == nil {
		return time.Time{}
	}
	if !w.wall {
		// Every hour of the day matches: step in real time (robfig/cron
		// in Location), so "every 15 minutes" keeps firing through the
		// hour repeated when clocks go back. It gives up after five years
		// (zero).
		return w.sched.Next(t.In(w.Location))
	}
	// A fixed time of day ("9:00", "every 2 hours") fires once per wall
	// time, like cron: on the night clocks go back a 1:30 job runs once
	// (robfig/cron alone runs it twice), on the night they go forward a
	// 2:30 job runs once, an hour later in wall time, rather than not at
	// all. Step the wall clock as if it were UTC, then place each wall
	// time in the zone; one already at or before t was handled.
	l := t.In(w.Location)
	wall := time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
	for range 4 {
		wall = w.sched.Next(wall)
		if wall.IsZero() {
			return time.Time{}
		}
		at := time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), 0, 0, w.Location)
		if at.Hour() != wall.Hour() || at.Minute() != wall.Minute() {
			// In the hour skipped when clocks go forward (Go places it
			// either side): take the same minute an hour later.
			at = time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour()+1, wall.Minute(), 0, 0, w.Location)
		}
		if at.After(t) {
			return at
		}
	}
	return time.Time{}
}

// NextN lists up to n due times after t.
func (w When) NextN(t time.Time, n int) []time.Time {
	var out []time.Time
	for len(out) < n {
		t = w.Next(t)
		if t.IsZero() {
			break
		}
		out = append(out, t)
	}
	return out
}
