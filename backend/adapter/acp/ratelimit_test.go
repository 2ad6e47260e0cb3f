package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/park"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/usage"
)

// The recordings of Gemini CLI 0.61.0 over ACP against the test kit's
// model server (testkit/fakemodel/agenttest TestRealGeminiACPUsage, `make
// record-transcripts`): a normal turn, and one the server refused with 429
// and reset headers (fakemodel.RateLimitUntil(rateLimitReset)).
var rateLimitReset = time.Date(2030, 1, 1, 15, 0, 0, 0, time.UTC)

// replayTurn replays a recorded transcript the way conn plays it: the
// mapper's events (replay) and, when session/prompt was answered with an
// error, the error the conn returns as the run's ("acp: <agent>: …").
func replayTurn(t *testing.T, name, display string) (events []event, turnErr error) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	events, malformed, _ := replay(b)
	if malformed != 0 {
		t.Fatalf("%s: %d malformed lines", name, malformed)
	}
	prompts := map[string]bool{} // our session/prompt request ids
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, maxLine)
	for sc.Scan() {
		var to struct {
			Direction string          `json:"_direction"`
			ID        json.RawMessage `json:"id"`
			Method    string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &to) == nil && to.Direction == "to_agent" {
			if to.Method == "session/prompt" {
				prompts[string(to.ID)] = true
			}
			continue
		}
		f, err := parseFrame(sc.Bytes())
		if err == nil && f.Kind == frameResponse && f.Error != nil && prompts[fmt.Sprint(f.RespID)] {
			turnErr = fmt.Errorf("acp: %s: %w", display, f.Error) // as conn.Turn says it
		}
	}
	return events, turnErr
}

// TestUsageTranscript: what Gemini CLI really reports of a turn's usage
// over ACP — no usage_update, only session/prompt's _meta.quota
// (token_count: input and output, no cache or thought tokens even when
// the model server reports them; model_usage names the model) — becomes
// the run's usage, with the model named, so the shim can price it
// (docs/ARCHITECTURE.md §Usage).
func TestUsageTranscript(t *testing.T) {
	events, turnErr := replayTurn(t, "gemini-acp-usage.jsonl", "Gemini CLI")
	if turnErr != nil {
		t.Fatalf("the recorded turn failed: %v", turnErr)
	}
	var got []run.Usage
	for _, e := range events {
		if e.Type == run.EventUsageUpdated {
			t.Errorf("Gemini CLI sent no usage_update when recorded; now it does: %s", e.Payload)
		}
		if e.Type == "(turn usage)" {
			var u run.Usage
			if err := json.Unmarshal(e.Payload, &u); err != nil {
				t.Fatal(err)
			}
			got = append(got, u)
		}
	}
	want := run.Usage{InputTokens: 10, OutputTokens: 5, Model: "gemini-2.5-flash"} // fakemodel's fixed figures
	if len(got) != 1 || got[0] != want {
		t.Fatalf("turn usage %+v, want one %+v", got, want)
	}
	if priced := usage.Prices.Cost(&got[0]); priced.CostUSD <= 0 || priced.CostSource == "" {
		t.Fatalf("the recorded model is not priced: %+v", priced)
	}
}

// TestRateLimitTranscriptParks: Gemini CLI 0.61.0, its model server
// answering 429 with reset headers, does not retry (its retry reads
// Google's RetryInfo, which the body lacks; it gives up after one
// attempt) and answers session/prompt with a JSON-RPC error of code 429
// whose message is the server's ("… resets at <time>"); nothing is sent
// over ACP before it. The park decision reads that error the way the shim
// does (shim/controls.go, shim/runner.go parkOutcome: park.FromEvent,
// park.Decide) and waits for the reset the server named
// (docs/ARCHITECTURE.md §Usage, parked runs).
func TestRateLimitTranscriptParks(t *testing.T) {
	events, turnErr := replayTurn(t, "gemini-acp-rate-limit.jsonl", "Gemini CLI")
	if turnErr == nil {
		t.Fatal("the recorded turn did not fail")
	}
	now := rateLimitReset.Add(-time.Hour)
	var seen park.Signal
	for _, e := range events {
		var p any
		switch e.Type {
		case run.EventUsageUpdated:
			var u run.Usage
			_ = json.Unmarshal(e.Payload, &u)
			p = u
		case run.EventError:
			var ei run.ErrorInfo
			_ = json.Unmarshal(e.Payload, &ei)
			p = ei
		}
		seen = seen.And(park.FromEvent(p, now))
	}
	v := park.Decide(park.Ending{AgentFailed: true, Seen: seen, Error: turnErr.Error(), Enabled: true, Now: now})
	if v.Action != park.WaitForReset || !v.ResumesAt.Equal(rateLimitReset) {
		t.Fatalf("verdict %+v from %q, want parked until %s", v, turnErr, rateLimitReset)
	}
	// Without the words "rate limit", the JSON-RPC code alone says it.
	bare := fmt.Errorf("acp: Gemini CLI: %w", &RPCError{Code: 429, Message: "quota"})
	if v := park.Decide(park.Ending{AgentFailed: true, Error: bare.Error(), Enabled: true, Now: now}); v.Action != park.BackOff {
		t.Fatalf("a bare code 429: verdict %+v, want a back-off", v)
	}
}
