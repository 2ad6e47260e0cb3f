package claude

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestRateLimitEventToQuota(t *testing.T) {
	pct := func(f float64) *float64 { return &f }
	tests := []struct {
		name, line string
		want       *run.Quota
	}{
		{"subscription window allowed",
			`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","resetsAt":1771390800,"rateLimitType":"five_hour","overageStatus":"rejected","isUsingOverage":false},"session_id":"s"}`,
			&run.Quota{Vendor: "claude", Window: "five_hour", WindowMinutes: 300, ResetsAt: 1771390800}},
		{"limit reached, weekly",
			`{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1771900000,"rateLimitType":"seven_day_opus"}}`,
			&run.Quota{Vendor: "claude", Window: "seven_day_opus", WindowMinutes: 10080, ResetsAt: 1771900000, Limited: true}},
		{"utilization as a fraction", `{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","rateLimitType":"five_hour","utilization":0.85}}`,
			&run.Quota{Vendor: "claude", Window: "five_hour", WindowMinutes: 300, UsedPercent: pct(85)}},
		{"utilization as a percentage", `{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","rateLimitType":"five_hour","utilization":40}}`,
			&run.Quota{Vendor: "claude", Window: "five_hour", WindowMinutes: 300, UsedPercent: pct(40)}},
		{"nothing in it", `{"type":"rate_limit_event","rate_limit_info":{}}`, nil},
		{"no info at all", `{"type":"rate_limit_event"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mp, err := NewMapper("/w").Map([]byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if len(mp.Events) != 0 {
					t.Fatalf("events = %+v", mp.Events)
				}
				return
			}
			if len(mp.Events) != 1 || mp.Events[0].Type != run.EventUsageUpdated {
				t.Fatalf("events = %+v", mp.Events)
			}
			got := *mp.Events[0].Payload.(run.Usage).Quota
			want := *tt.want
			if (got.UsedPercent == nil) != (want.UsedPercent == nil) || (got.UsedPercent != nil && *got.UsedPercent != *want.UsedPercent) {
				t.Fatalf("used = %v, want %v", got.UsedPercent, want.UsedPercent)
			}
			got.UsedPercent, want.UsedPercent = nil, nil
			if got != want {
				t.Fatalf("quota = %+v\nwant    %+v", got, want)
			}
		})
	}
}
