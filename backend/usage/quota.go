package usage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Seen is a vendor's window as an agent last reported it.
type Seen struct {
	run.Quota
	SeenAt time.Time `json:"seen_at"`
}

// QuotaSource reads the latest window of every vendor the agents reported.
type QuotaSource interface {
	QuotaLatest(ctx context.Context) ([]Seen, error)
}

// StaleAfter is how old a figure may be before its line says its age.
const StaleAfter = 10 * time.Minute

var vendorNames = map[string]string{"codex": "Codex", "claude": "Claude"}

var windowNames = map[string]string{
	"five_hour": "5-hour", "seven_day": "weekly", "seven_day_opus": "weekly Opus", "seven_day_sonnet": "weekly Sonnet",
	"primary": "short", "secondary": "long",
}

// QuotaLine says a window in one line for the tray, the Usage view and a
// session's header (pure; table-tested): "Codex: 72 % of the 5-hour
// window, resets 14:20", "Claude: limit reached, resets 15:00", with the
// figure's age once it is older than StaleAfter, and that the window has
// reset since when its reset time has passed.
func QuotaLine(s Seen, now time.Time) string {
	vendor := vendorNames[s.Vendor]
	if vendor == "" {
		vendor = s.Vendor
	}
	window := windowNames[s.Window]
	if window == "" {
		window = strings.ReplaceAll(s.Window, "_", " ")
	}
	var b strings.Builder
	b.WriteString(vendor + ": ")
	switch {
	case s.Limited:
		fmt.Fprintf(&b, "%s limit reached", window)
	case s.UsedPercent != nil:
		fmt.Fprintf(&b, "%.0f %% of the %s window", *s.UsedPercent, window)
	default:
		fmt.Fprintf(&b, "within the %s limit", window)
	}
	if s.ResetsAt > 0 {
		reset := time.Unix(s.ResetsAt, 0).In(now.Location())
		if reset.After(now) {
			b.WriteString(", resets " + clock(reset, now))
		} else {
			b.WriteString(", has reset since " + clock(reset, now))
		}
	}
	if age := now.Sub(s.SeenAt); !s.SeenAt.IsZero() && age > StaleAfter {
		b.WriteString(" (as of " + ago(age) + ")")
	}
	return b.String()
}

// clock is a time of day, with the weekday when it is not today.
func clock(t, now time.Time) string {
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04")
	}
	return t.Format("Mon 15:04")
}

func ago(d time.Duration) string {
	switch {
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}
