package claude

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// TestUsageFromTranscripts: the run's usage as recorded Claude Code
// transcripts report it (docs/ARCHITECTURE.md §Usage).
func TestUsageFromTranscripts(t *testing.T) {
	tests := []struct {
		file string
		want run.Usage
	}{
		{"testdata/real-tool-allow.jsonl", run.Usage{InputTokens: 20, OutputTokens: 10, CostUSD: 0.00035, CostSource: "agent",
			Model: "claude-opus-4-8", ContextTokens: 10, ContextWindow: 1000000}},
		// Resumed on the 200k model: the last of three results.
		{"testdata/real-resume.jsonl", run.Usage{InputTokens: 10, OutputTokens: 5, CostUSD: 0.000175, CostSource: "agent",
			Model: "claude-opus-4-8", ContextTokens: 10, ContextWindow: 200000}},
		// A cancelled turn reports nothing spent and no model; the prompt it
		// sent still fills the context.
		{"testdata/real-cancel.jsonl", run.Usage{ContextTokens: 10}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, _, results := replay(t, tt.file)
			if len(results) == 0 || results[len(results)-1].Usage == nil {
				t.Fatalf("no usage in %s", tt.file)
			}
			if got := *results[len(results)-1].Usage; got != tt.want {
				t.Errorf("usage = %+v\nwant    %+v", got, tt.want)
			}
		})
	}
}

// TestUsageLines: cache reads and writes, several models, no cost.
func TestUsageLines(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  run.Usage
	}{
		{"cache read and write", []string{
			`{"type":"assistant","message":{"id":"a","content":[],"usage":{"input_tokens":4,"cache_read_input_tokens":1000,"cache_creation_input_tokens":200,"output_tokens":1}}}`,
			`{"type":"result","subtype":"success","usage":{"input_tokens":8,"cache_read_input_tokens":2000,"cache_creation_input_tokens":300,"output_tokens":50},"total_cost_usd":0.01,` +
				`"modelUsage":{"claude-haiku-4-5":{"contextWindow":200000},"claude-sonnet-4-5-20250929[1m]":{"contextWindow":1000000}}}`,
		}, run.Usage{InputTokens: 2308, OutputTokens: 50, CachedTokens: 2000, CacheWriteTokens: 300, CostUSD: 0.01, CostSource: "agent",
			Model: "claude-sonnet-4-5-20250929", ContextTokens: 1204, ContextWindow: 1000000}},
		{"no cost reported", []string{
			`{"type":"result","subtype":"success","usage":{"input_tokens":8,"output_tokens":5}}`,
		}, run.Usage{InputTokens: 8, OutputTokens: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMapper("/w")
			var last *Result
			for _, l := range tt.lines {
				mp, err := m.Map([]byte(l))
				if err != nil {
					t.Fatal(err)
				}
				if mp.Result != nil {
					last = mp.Result
				}
			}
			if last == nil || last.Usage == nil || *last.Usage != tt.want {
				t.Fatalf("usage = %+v\nwant    %+v", last.Usage, tt.want)
			}
		})
	}
}
