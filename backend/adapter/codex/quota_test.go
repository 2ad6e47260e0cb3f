package codex

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestRateLimitsToQuota(t *testing.T) {
	tests := []struct {
		name, line string
		want       []run.Quota // UsedPercent compared apart
		used       []float64
	}{
		{"recorded: an API key has no windows",
			`{"method":"account/rateLimits/updated","params":{"rateLimits":{"limitId":"codex","primary":null,"secondary":null,"rateLimitReachedType":null}}}`, nil, nil},
		{"both windows",
			`{"method":"account/rateLimits/updated","params":{"rateLimits":{"primary":{"usedPercent":72,"windowDurationMins":300,"resetsAt":1795340000},"secondary":{"usedPercent":100,"windowDurationMins":10080,"resetsAt":1795900000}}}}`,
			[]run.Quota{{Vendor: "codex", Window: "5-hour", WindowMinutes: 300, ResetsAt: 1795340000},
				{Vendor: "codex", Window: "weekly", WindowMinutes: 10080, ResetsAt: 1795900000, Limited: true}}, []float64{72, 100}},
		{"no length", `{"method":"account/rateLimits/updated","params":{"rateLimits":{"primary":{"usedPercent":5}}}}`,
			[]run.Quota{{Vendor: "codex", Window: "primary"}}, []float64{5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mp, err := NewMapper("/w").Map([]byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			if len(mp.Events) != len(tt.want) {
				t.Fatalf("events = %+v", mp.Events)
			}
			for i, ev := range mp.Events {
				q := ev.Payload.(run.Usage).Quota
				got := *q
				got.UsedPercent = nil
				if ev.Type != run.EventUsageUpdated || got != tt.want[i] || q.UsedPercent == nil || *q.UsedPercent != tt.used[i] {
					t.Errorf("event %d = %s %+v (used %v), want %+v (used %v)", i, ev.Type, got, q.UsedPercent, tt.want[i], tt.used[i])
				}
			}
		})
	}
}

func TestWindowName(t *testing.T) {
	for mins, want := range map[int64]string{300: "5-hour", 10080: "weekly", 1440: "1-day", 90: "90-minute"} {
		if got := windowName(mins); got != want {
			t.Errorf("windowName(%d) = %q, want %q", mins, got, want)
		}
	}
}
