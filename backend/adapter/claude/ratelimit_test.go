package claude

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/park"
	"github.com/hermesdesk/hermesdesk/backend/run"
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
// (shim/controls.go, shim/runner.go parkOutcome).
func TestRateLimitTranscriptParks(t *testing.T) {
	events, _, results := replay(t, filepath.Join("testdata", "real-rate-limit.jsonl"))
	if len(results) != 1 || !results[0].IsError {
		t.Fatalf("want one error result, got %+v", results)
	}
	now := rateLimitReset.Add(-time.Hour)
	var sig park.Signal
	for _, e := range events {
		switch p := e.Payload.(type) {
		case run.Usage:
			if p.Quota != nil && p.Quota.Limited {
				sig = park.FromQuota(true, p.Quota.ResetsAt)
			}
		case run.ErrorInfo:
			if s := park.FromText(p.Message+" "+p.Detail, now); s.Limited && sig.ResetsAt.IsZero() {
				sig = s
			}
		}
	}
	// What the conn returns as the run's error (conn.go: "claude: " + the result's text).
	if s := park.FromText("claude: "+trimErr(results[0].Text), now); s.Limited && sig.ResetsAt.IsZero() {
		sig = s
	}
	if !sig.Limited {
		t.Fatalf("the recorded 429 is not read as a rate limit: %q", results[0].Text)
	}
	v := park.Decide(park.Facts{Enabled: true, ResetsAt: sig.ResetsAt, Now: now})
	if !v.Park || !v.ResumesAt.Equal(rateLimitReset) || v.Backoff != 0 {
		t.Fatalf("verdict %+v, want parked until %s", v, rateLimitReset)
	}
}
