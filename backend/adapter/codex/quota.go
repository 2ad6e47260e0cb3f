package codex

import (
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// codexRateLimits is account/rateLimits/updated's snapshot: the primary
// (the 5-hour) and secondary (the weekly) windows, null when unknown (an
// API key has none).
type codexRateLimits struct {
	Primary              *codexWindow `json:"primary"`
	Secondary            *codexWindow `json:"secondary"`
	RateLimitReachedType *string      `json:"rateLimitReachedType"`
}

type codexWindow struct {
	UsedPercent        float64 `json:"usedPercent"`
	WindowDurationMins int64   `json:"windowDurationMins"`
	ResetsAt           int64   `json:"resetsAt"` // unix seconds
}

// quotaEvents maps a snapshot to one usage.updated per known window
// (docs/ARCHITECTURE.md §Usage).
func quotaEvents(r *codexRateLimits) []Out {
	if r == nil {
		return nil
	}
	var out []Out
	for _, w := range []struct {
		name string
		win  *codexWindow
	}{{"primary", r.Primary}, {"secondary", r.Secondary}} {
		if w.win == nil {
			continue
		}
		used := w.win.UsedPercent
		q := &run.Quota{Vendor: "codex", Window: w.name, WindowMinutes: w.win.WindowDurationMins, UsedPercent: &used,
			ResetsAt: w.win.ResetsAt, Limited: used >= 100}
		if w.win.WindowDurationMins > 0 {
			q.Window = windowName(w.win.WindowDurationMins)
		}
		out = append(out, Out{run.EventUsageUpdated, run.Usage{Quota: q}})
	}
	return out
}

// windowName names a window by its length: "5-hour", "weekly", "90-minute".
func windowName(mins int64) string {
	switch {
	case mins == 7*24*60:
		return "weekly"
	case mins%(24*60) == 0:
		return fmt.Sprintf("%d-day", mins/(24*60))
	case mins%60 == 0:
		return fmt.Sprintf("%d-hour", mins/60)
	}
	return fmt.Sprintf("%d-minute", mins)
}
