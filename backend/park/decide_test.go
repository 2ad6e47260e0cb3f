package park

import (
	"strings"
	"testing"
	"time"
)

// TestDecide: the one park decision, from what a run ended with
// (docs/ARCHITECTURE.md §Usage, parked runs).
func TestDecide(t *testing.T) {
	now := time.Date(2026, 11, 27, 14, 0, 0, 0, time.Local)
	limit := func(reset time.Time) Signal { return Signal{Limited: true, ResetsAt: reset} }
	failed := func(seen Signal, err string, attempts int) Ending {
		return Ending{AgentFailed: true, Seen: seen, Error: err, Enabled: true, Attempts: attempts, Now: now}
	}
	const words429 = "openai: 429 Too Many Requests (retry-after: 120)"
	tests := []struct {
		name      string
		e         Ending
		action    Action
		resumesAt time.Time
		attempt   int
		backoff   time.Duration
		says      string
	}{
		{"reset ahead is waited for", failed(limit(now.Add(time.Hour)), "", 0), WaitForReset, now.Add(time.Hour), 1, 0, "resets at 15:00"},
		{"a 429 with reset headers in the error words", failed(Signal{}, words429, 0), WaitForReset, now.Add(2 * time.Minute), 1, 0, "resets at 14:02"},
		{"seen and said: the later reset", failed(limit(now.Add(time.Hour)), words429, 0), WaitForReset, now.Add(time.Hour), 1, 0, "resets at 15:00"},
		{"no reset given backs off a minute", failed(Signal{}, "API Error: rate_limit_error", 0), BackOff, now.Add(time.Minute), 1, time.Minute, "no reset time was given, so the run tries again in 1 minute (at 14:01)"},
		{"reset in the past backs off", failed(limit(now.Add(-time.Minute)), "", 0), BackOff, now.Add(time.Minute), 1, time.Minute, "already passed"},
		{"reset exactly now backs off", failed(limit(now), "", 0), BackOff, now.Add(time.Minute), 1, time.Minute, "already passed"},
		{"second limit: 2 minutes", failed(limit(time.Time{}), "", 1), BackOff, now.Add(2 * time.Minute), 2, 2 * time.Minute, "in 2 minutes"},
		{"third limit: 4 minutes", failed(limit(time.Time{}), "", 2), BackOff, now.Add(4 * time.Minute), 3, 4 * time.Minute, "in 4 minutes"},
		{"sixth limit: capped at 30", failed(limit(time.Time{}), "", 5), BackOff, now.Add(30 * time.Minute), 6, 30 * time.Minute, "in 30 minutes"},
		{"hundredth limit: still 30", failed(Signal{}, "rate limit", 99), BackOff, now.Add(30 * time.Minute), 100, 30 * time.Minute, "in 30 minutes"},
		{"repeated limit with a reset waits for it", failed(limit(now.Add(10*time.Minute)), "", 3), WaitForReset, now.Add(10 * time.Minute), 4, 0, "resets at 14:10"},
		{"reset tomorrow says the day", failed(limit(now.Add(24*time.Hour)), "", 0), WaitForReset, now.Add(24 * time.Hour), 1, 0, "resets at Sat 28 Nov 14:00"},
		{"parking off fails as before", Ending{AgentFailed: true, Seen: limit(now.Add(time.Hour)), Now: now}, End, time.Time{}, 0, 0, ""},
		{"another failure fails", failed(Signal{}, "exit status 1", 0), End, time.Time{}, 0, 0, ""},
		{"a cancelled parked run stays cancelled", Ending{Seen: limit(now.Add(time.Hour)), Error: words429, Enabled: true, Attempts: 2, Now: now}, End, time.Time{}, 0, 0, ""},
		{"a completed turn that saw a window reached completes", Ending{Seen: limit(now.Add(time.Hour)), Enabled: true, Now: now}, End, time.Time{}, 0, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Decide(tc.e)
			if v.Action != tc.action || v.Park() != (tc.action != End) || !v.ResumesAt.Equal(tc.resumesAt) || v.Attempt != tc.attempt || v.Backoff != tc.backoff {
				t.Errorf("Decide = %+v, want action %v until %v attempt %d backoff %v", v, tc.action, tc.resumesAt, tc.attempt, tc.backoff)
			}
			if !strings.Contains(v.Detail, tc.says) {
				t.Errorf("Detail %q does not say %q", v.Detail, tc.says)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{time.Minute, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 30 * time.Minute, 30 * time.Minute}
	for attempt, w := range want {
		if got := Backoff(attempt); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", attempt, got, w)
		}
	}
	if got := Backoff(1 << 30); got != MaxBackoff {
		t.Errorf("Backoff(huge) = %v", got)
	}
}

func TestDue(t *testing.T) {
	now := time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return now.Add(time.Duration(m) * time.Minute) }
	tests := []struct {
		name      string
		runs      []Run
		resumeNow map[string]bool
		due       []string
		wake      time.Time
	}{
		{"none parked", nil, nil, nil, time.Time{}},
		{"reset not yet: wake at it", []Run{{"a", "claude", at(5)}}, nil, nil, at(5)},
		{"reset reached", []Run{{"a", "claude", at(0)}}, nil, []string{"a"}, time.Time{}},
		{"reset in the past", []Run{{"a", "claude", at(-90)}}, nil, []string{"a"}, time.Time{}},
		{"unknown time is due", []Run{{"a", "claude", time.Time{}}}, nil, []string{"a"}, time.Time{}},
		{"one due resumes its whole vendor", []Run{{"a", "claude", at(-1)}, {"b", "claude", at(20)}, {"c", "codex", at(3)}},
			nil, []string{"a", "b"}, at(3)},
		{"earliest of the rest wakes", []Run{{"a", "claude", at(9)}, {"b", "codex", at(3)}}, nil, nil, at(3)},
		{"resume now", []Run{{"a", "claude", at(9)}, {"b", "claude", at(9)}}, map[string]bool{"a": true}, []string{"a"}, at(9)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			due, wake := Due(tc.runs, now, tc.resumeNow)
			if len(due) != len(tc.due) {
				t.Errorf("due = %v, want %v", due, tc.due)
			}
			for _, id := range tc.due {
				if !due[id] {
					t.Errorf("due = %v, want %v", due, tc.due)
				}
			}
			if !wake.Equal(tc.wake) {
				t.Errorf("wake = %v, want %v", wake, tc.wake)
			}
		})
	}
}
