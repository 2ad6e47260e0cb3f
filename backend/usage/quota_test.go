package usage

import (
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestQuotaLine(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	at := func(h, m int) int64 { return time.Date(2026, 11, 27, h, m, 0, 0, time.UTC).Unix() }
	pct := func(f float64) *float64 { return &f }
	fresh := now.Add(-time.Minute)
	tests := []struct {
		name string
		s    Seen
		want string
	}{
		{"codex share", Seen{run.Quota{Vendor: "codex", Window: "5-hour", UsedPercent: pct(72.4), ResetsAt: at(14, 20)}, fresh},
			"Codex: 72 % of the 5-hour window, resets 14:20"},
		{"claude reached", Seen{run.Quota{Vendor: "claude", Window: "five_hour", Limited: true, ResetsAt: at(15, 0)}, fresh},
			"Claude: 5-hour limit reached, resets 15:00"},
		{"no figure", Seen{run.Quota{Vendor: "claude", Window: "seven_day_opus", ResetsAt: at(15, 0) + 3*86400}, fresh},
			"Claude: within the weekly Opus limit, resets Mon 15:00"},
		{"stale", Seen{run.Quota{Vendor: "codex", Window: "weekly", UsedPercent: pct(10), ResetsAt: at(20, 0)}, now.Add(-3 * time.Hour)},
			"Codex: 10 % of the weekly window, resets 20:00 (as of 3 h ago)"},
		{"reset since", Seen{run.Quota{Vendor: "codex", Window: "5-hour", UsedPercent: pct(100), Limited: true, ResetsAt: at(11, 0)}, now.Add(-2 * time.Hour)},
			"Codex: 5-hour limit reached, has reset since 11:00 (as of 2 h ago)"},
		{"minutes old", Seen{run.Quota{Vendor: "other", Window: "tokens_per_day"}, now.Add(-25 * time.Minute)},
			"other: within the tokens per day limit (as of 25 min ago)"},
		{"days old", Seen{run.Quota{Vendor: "codex", Window: "weekly", UsedPercent: pct(3)}, now.Add(-80 * time.Hour)},
			"Codex: 3 % of the weekly window (as of 3 days ago)"},
	}
	for _, tt := range tests {
		if got := QuotaLine(tt.s, now); got != tt.want {
			t.Errorf("%s: %q\nwant  %q", tt.name, got, tt.want)
		}
	}
}
