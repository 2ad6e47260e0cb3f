package park

import (
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestFromText(t *testing.T) {
	now := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		msg     string
		limited bool
		resets  time.Time
	}{
		{"plain failure", "The agent failed: exit status 1", false, time.Time{}},
		{"a line number is no limit", "syntax error at line 429", false, time.Time{}},
		{"claude api key rate limit, no reset", `API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}`, true, time.Time{}},
		{"claude usage limit with unix reset", "Claude AI usage limit reached|1764255600", true, time.Unix(1764255600, 0)},
		{"resets_at in a body", `{"error":"rate_limited","resets_at":1764255600}`, true, time.Unix(1764255600, 0)},
		{"codex usage limit with a wait", "You've hit your usage limit. Try again in 2 hours 5 minutes.", true, now.Add(2*time.Hour + 5*time.Minute)},
		{"openai 429 with retry-after seconds", "Request failed: status 429 Too Many Requests (retry-after: 120)", true, now.Add(2 * time.Minute)},
		{"reset header as a go duration", "429 Too Many Requests; x-ratelimit-reset-requests: 1m30s", true, now.Add(90 * time.Second)},
		{"a timestamp", "rate limit exceeded, resets at 2026-11-27T15:00:00Z", true, time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)},
		{"gemini quota", "[429] RESOURCE_EXHAUSTED: Quota exceeded for metric", true, time.Time{}},
		{"please retry in seconds", "RESOURCE_EXHAUSTED. Please retry in 7.5s.", true, now.Add(7500 * time.Millisecond)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := FromText(tc.msg, now)
			if s.Limited != tc.limited || !s.ResetsAt.Equal(tc.resets) {
				t.Errorf("FromText(%q) = %+v, want limited %v resets %v", tc.msg, s, tc.limited, tc.resets)
			}
		})
	}
}

func TestFromQuota(t *testing.T) {
	if s := FromQuota(false, 1764255600); s.Limited {
		t.Errorf("a window not reached is no limit: %+v", s)
	}
	if s := FromQuota(true, 0); !s.Limited || !s.ResetsAt.IsZero() {
		t.Errorf("reached without a reset: %+v", s)
	}
	if s := FromQuota(true, 1764255600); !s.ResetsAt.Equal(time.Unix(1764255600, 0)) {
		t.Errorf("reached with a reset: %+v", s)
	}
}

func TestFromEventAndAnd(t *testing.T) {
	now := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	reset := now.Add(time.Hour)
	pct := 100.0
	reached := run.Usage{Quota: &run.Quota{Vendor: "codex", Window: "primary", UsedPercent: &pct, ResetsAt: reset.Unix(), Limited: true}}
	notReached := run.Usage{Quota: &run.Quota{Vendor: "codex", Window: "secondary", ResetsAt: now.Add(9 * time.Hour).Unix()}}
	tests := []struct {
		name   string
		events []any
		want   Signal
	}{
		{"nothing said", []any{run.Usage{InputTokens: 3}, run.ErrorInfo{Message: "boom"}}, Signal{}},
		{"a reached window", []any{reached}, Signal{Limited: true, ResetsAt: reset}},
		{"a pointer to one", []any{&reached}, Signal{Limited: true, ResetsAt: reset}},
		{"a window not reached undoes nothing", []any{reached, notReached}, Signal{Limited: true, ResetsAt: reset}},
		{"error words without a reset keep the window's", []any{reached, run.ErrorInfo{Message: "rate limit"}}, Signal{Limited: true, ResetsAt: reset}},
		{"the later reset wins, in any order", []any{run.ErrorInfo{Message: "429 Too Many Requests", Detail: "retry-after: 7200"}, reached}, Signal{Limited: true, ResetsAt: now.Add(2 * time.Hour)}},
		{"error words alone", []any{&run.ErrorInfo{Message: "Too Many Requests"}}, Signal{Limited: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s Signal
			for _, ev := range tc.events {
				s = s.And(FromEvent(ev, now))
			}
			if s.Limited != tc.want.Limited || !s.ResetsAt.Equal(tc.want.ResetsAt) {
				t.Errorf("got %+v, want %+v", s, tc.want)
			}
		})
	}
}

func FuzzFromText(f *testing.F) {
	for _, s := range []string{"rate limit |1764255600", "429 retry-after: 99999999999", "too many requests try again in 1h2m3s4ms",
		"rate_limit resets_at: 1", "limit reached 2026-13-45T99:99Z"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, msg string) {
		s := FromText(msg, now)
		if !s.Limited && !s.ResetsAt.IsZero() {
			t.Fatalf("a reset without a limit: %+v", s)
		}
		if !s.ResetsAt.IsZero() && s.ResetsAt.Before(now) && !pipeUnix.MatchString(msg) && !jsonUnix.MatchString(msg) && !stamp.MatchString(msg) {
			t.Fatalf("a wait read as a time before now: %q → %v", msg, s.ResetsAt)
		}
	})
}
