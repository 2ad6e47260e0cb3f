package acp

import (
	"encoding/json"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// TestPromptResultUsage: session/prompt's usage, the ACP way and Gemini's
// (docs/ARCHITECTURE.md §Usage).
func TestPromptResultUsage(t *testing.T) {
	tests := []struct {
		name, result string
		want         *run.Usage
	}{
		{"none", `{"stopReason":"end_turn"}`, nil},
		{"every counter", `{"stopReason":"end_turn","usage":{"inputTokens":900,"outputTokens":80,"thoughtTokens":30,"cachedReadTokens":500,"cachedWriteTokens":100,"totalTokens":1010}}`,
			&run.Usage{InputTokens: 900, OutputTokens: 80, ReasoningTokens: 30, CachedTokens: 500, CacheWriteTokens: 100}},
		{"gemini's _meta", `{"stopReason":"end_turn","_meta":{"quota":{"token_count":{"input_tokens":12,"output_tokens":180}}}}`,
			&run.Usage{InputTokens: 12, OutputTokens: 180}},
		{"gemini's _meta naming its model", `{"stopReason":"end_turn","_meta":{"quota":{"token_count":{"input_tokens":12,"output_tokens":180},"model_usage":[{"model":"gemini-2.5-flash","token_count":{"input_tokens":12,"output_tokens":180}}]}}}`,
			&run.Usage{InputTokens: 12, OutputTokens: 180, Model: "gemini-2.5-flash"}},
		{"gemini's _meta with two models names none", `{"stopReason":"end_turn","_meta":{"quota":{"token_count":{"input_tokens":12,"output_tokens":180},"model_usage":[{"model":"a"},{"model":"b"}]}}}`,
			&run.Usage{InputTokens: 12, OutputTokens: 180}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r promptResult
			if err := json.Unmarshal([]byte(tt.result), &r); err != nil {
				t.Fatal(err)
			}
			got := r.usage()
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Fatalf("usage = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestUsageUpdate(t *testing.T) {
	out := NewMapper().Update(json.RawMessage(`{"sessionUpdate":"usage_update","used":53000,"size":200000,"cost":{"amount":0.045,"currency":"USD"}}`))
	want := run.Usage{ContextTokens: 53000, ContextWindow: 200000, CostUSD: 0.045, CostSource: "agent"}
	if len(out) != 1 || out[0].Type != run.EventUsageUpdated || out[0].Payload != want {
		t.Fatalf("update = %+v, want %+v", out, want)
	}
}
