package codex

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/park"
)

// rateLimitReset is the reset the recorded 429 named in its headers
// (fakemodel.RateLimitUntil): testdata/real-rate-limit.jsonl, recorded by
// TestRealCodexRateLimited.
var rateLimitReset = time.Date(2030, 1, 1, 15, 0, 0, 0, time.UTC)

// TestRateLimitTranscriptParks: Codex 0.169.0 (app-server, request and
// stream retries 0), its Responses server answering 429 with Retry-After
// and x-ratelimit-reset-* headers, fails the turn with "exceeded retry
// limit, last status: 429 Too Many Requests" and no account/rateLimits
// update: it passes on no reset time. The run still parks (it does not
// fail) and backs off the first step, one minute (docs/ARCHITECTURE.md
// §Usage, parked runs). The signal is read the way the shim reads it
// (shim/controls.go, shim/runner.go parkOutcome: park.FromEvent, park.Decide).
func TestRateLimitTranscriptParks(t *testing.T) {
	events, _, ends := replay(t, filepath.Join("testdata", "real-rate-limit.jsonl"))
	if len(ends) != 1 || ends[0].Status != "failed" {
		t.Fatalf("want one failed turn, got %+v", ends)
	}
	now := rateLimitReset.Add(-time.Hour)
	var seen park.Signal
	for _, e := range events {
		seen = seen.And(park.FromEvent(e.Payload, now))
	}
	// What the conn returns as the run's error (conn.go: "codex: " + the turn's error).
	v := park.Decide(park.Ending{AgentFailed: true, Seen: seen, Error: "codex: " + ends[0].Error, Enabled: true, Now: now})
	if !v.Limit.Limited || !v.Limit.ResetsAt.IsZero() {
		t.Fatalf("signal %+v from %q: want a rate limit with no reset", v.Limit, ends[0].Error)
	}
	if v.Action != park.BackOff || v.Backoff != time.Minute || !v.ResumesAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("verdict %+v, want parked, backing off a minute", v)
	}
}
