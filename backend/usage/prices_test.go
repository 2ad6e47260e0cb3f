package usage

import (
	"math"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		model string
		want  bool
		input float64
	}{
		{"claude-sonnet-4-5", true, 3},
		{"claude-sonnet-4-5-20250929", true, 3},
		{"gpt-4.1-2025-04-14", true, 2},
		{"GPT-5", true, 1.25},
		{"gpt-5-mini", true, 0.25},
		{"gpt-5-nano-preview", false, 0}, // not gpt-5's price, nor nano's
		{"gpt-5.5", false, 0},
		{"claude-opus-4-8", false, 0},
		{"", false, 0},
	}
	for _, tt := range tests {
		p, ok := Prices.Lookup(tt.model)
		if ok != tt.want || p.Input != tt.input {
			t.Errorf("Lookup(%q) = %v, %v; want input %v, %v", tt.model, p.Input, ok, tt.input, tt.want)
		}
	}
}

func TestCost(t *testing.T) {
	table := PriceTable{Date: "2025-10-01", Models: map[string]Price{
		"m":      {Input: 2, CachedInput: 0.5, CacheWrite: 4, Output: 10},
		"openai": {Input: 1, CachedInput: 0.1, Output: 8},
	}}
	tests := []struct {
		name       string
		in         *run.Usage
		wantCost   float64
		wantSource string
	}{
		{"nil stays nil", nil, 0, ""},
		{"agent's cost wins", &run.Usage{Model: "m", InputTokens: 1e6, CostUSD: 0.25}, 0.25, "agent"},
		{"agent's cost keeps its source", &run.Usage{CostUSD: 0.25, CostSource: "agent"}, 0.25, "agent"},
		{"unknown model: no price", &run.Usage{Model: "nope", InputTokens: 1e6}, 0, ""},
		{"no model: no price", &run.Usage{InputTokens: 1e6}, 0, ""},
		// 1M input of which 200k cache reads and 300k cache writes:
		// 500k fresh × 2 + 200k × 0.5 + 300k × 4 + 100k out × 10.
		{"from the table", &run.Usage{Model: "m", InputTokens: 1e6, CachedTokens: 2e5, CacheWriteTokens: 3e5, OutputTokens: 1e5}, 1 + 0.1 + 1.2 + 1, "prices 2025-10-01"},
		{"cache writes billed as input where unpriced", &run.Usage{Model: "openai", InputTokens: 1e6, CacheWriteTokens: 1e6}, 1, "prices 2025-10-01"},
		{"more cached than input never goes negative", &run.Usage{Model: "openai", InputTokens: 10, CachedTokens: 20}, 20 * 0.1 / 1e6, "prices 2025-10-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before run.Usage
			if tt.in != nil {
				before = *tt.in
			}
			got := table.Cost(tt.in)
			if tt.in == nil {
				if got != nil {
					t.Fatalf("Cost(nil) = %+v", got)
				}
				return
			}
			if math.Abs(got.CostUSD-tt.wantCost) > 1e-12 || got.CostSource != tt.wantSource {
				t.Errorf("Cost = %v %q, want %v %q", got.CostUSD, got.CostSource, tt.wantCost, tt.wantSource)
			}
			if *tt.in != before {
				t.Errorf("Cost changed its argument: %+v", *tt.in)
			}
		})
	}
}

func TestShippedTableParses(t *testing.T) {
	if Prices.Date == "" || len(Prices.Models) == 0 {
		t.Fatalf("shipped table: %+v", Prices)
	}
	if _, err := ParsePrices([]byte(`{"models":{}}`)); err == nil {
		t.Error("a table without a date was accepted")
	}
	if _, err := ParsePrices([]byte(`{`)); err == nil {
		t.Error("broken JSON was accepted")
	}
}
