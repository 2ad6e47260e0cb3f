package claude

import (
	"encoding/json"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// rateLimitInfo is a rate_limit_event's rate_limit_info: the subscription's
// window (five_hour, seven_day, seven_day_opus…), whether the next request
// is allowed, when the window resets (unix seconds) and, in some versions,
// how much of it is used.
type rateLimitInfo struct {
	Status        string   `json:"status"` // allowed, allowed_warning, rejected
	ResetsAt      int64    `json:"resetsAt"`
	RateLimitType string   `json:"rateLimitType"`
	Utilization   *float64 `json:"utilization"`
}

// quota maps a rate_limit_event to a usage.updated carrying the window
// (docs/ARCHITECTURE.md §Usage); nil when it names no window.
func quota(raw json.RawMessage) *Out {
	var info rateLimitInfo
	if json.Unmarshal(raw, &info) != nil || (info.RateLimitType == "" && info.Status == "") {
		return nil
	}
	q := &run.Quota{Vendor: "claude", Window: info.RateLimitType, ResetsAt: info.ResetsAt,
		Limited: info.Status == "rejected"}
	if q.Window == "" {
		q.Window = "limit"
	}
	switch {
	case q.Window == "five_hour":
		q.WindowMinutes = 5 * 60
	case strings.HasPrefix(q.Window, "seven_day"):
		q.WindowMinutes = 7 * 24 * 60
	}
	if u := info.Utilization; u != nil {
		// Seen as a fraction (0.72) and as a percentage (72).
		p := *u
		if p <= 1 {
			p *= 100
		}
		q.UsedPercent = &p
	}
	return &Out{run.EventUsageUpdated, run.Usage{Quota: q}}
}
