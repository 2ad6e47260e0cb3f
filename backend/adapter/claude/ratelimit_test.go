package claude

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/park"
)

// rateLimitReset is the reset the recorded 429 named (fakemodel.RateLimitUntil;
// a fixed time, so the golden test knows it): testdata/real-rate-limit.jsonl,
// recorded by TestRealClaudeRateLimited.
var rateLimitReset = time.Date(2030, 1, 1, 15, 0, 0, 0, time.UTC)

// TestRateLimitTranscriptParks: Claude Code 2.1.197 with an API key, its
// model server answering 429 with reset headers, ends the turn with a
// result error (api_error_status 429) and no rate_limit_event; the
// adapter's error carries the server's words, and the park decision reads
// from them the reset the server named (docs/ARCHITECTURE.md §Usage,
// parked runs). The signal is read the way the shim reads it: a reached
// window from usage.updated first, else the error's words
// (shim/controls.go, shim/runner.go parkOutcome: park.FromEvent, park.Decide).
func TestRateLimitTranscriptParks(t *testing.T) {
	events, _, results := replay(t, filepath.Join("testdata", "real-rate-limit.jsonl"))
	if len(results) != 1 || !results[0].IsError {
		t.Fatalf("want one error result, got %+v", results)
	}
	now := rateLimitReset.Add(-time.Hour)
	var seen park.Signal
	for _, e := range events {
		seen = seen.And(park.FromEvent(e.Payload, now))
	}
	// What the conn returns as the run's error (conn.go: "claude: " + the turn's error).
	v := park.Decide(park.Ending{AgentFailed: true, Seen: seen, Error: "claude: " + trimErr(results[0].Text), Enabled: true, Now: now})
	if !v.Limit.Limited {
		t.Fatalf("the recorded 429 is not read as a rate limit: %q", results[0].Text)
	}
	if v.Action != park.WaitForReset || !v.ResumesAt.Equal(rateLimitReset) || v.Backoff != 0 {
		t.Fatalf("verdict %+v, want parked until %s", v, rateLimitReset)
	}
}
