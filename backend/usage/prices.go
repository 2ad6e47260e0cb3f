// Package usage owns what Hermes Desk says about tokens and money: the
// price of a run's tokens from the shipped, dated price table, and totals by
// day, agent, model and project (docs/ARCHITECTURE.md §Usage).
package usage

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

//go:embed prices.json
var pricesJSON []byte

// Price is one model's price in USD per million tokens.
type Price struct {
	Input       float64 `json:"input"`
	CachedInput float64 `json:"cached_input"`
	// CacheWrite is zero where the vendor charges cache writes as input.
	CacheWrite float64 `json:"cache_write"`
	Output     float64 `json:"output"`
}

// PriceTable is the shipped table: prices as they stood on Date.
type PriceTable struct {
	Date   string           `json:"date"`
	Models map[string]Price `json:"models"`
}

// Prices is the table shipped in this build.
var Prices = mustParsePrices(pricesJSON)

func mustParsePrices(b []byte) PriceTable {
	t, err := ParsePrices(b)
	if err != nil {
		panic(err) // a build-time file: a bad one must not ship
	}
	return t
}

// ParsePrices reads a price table.
func ParsePrices(b []byte) (PriceTable, error) {
	var t PriceTable
	if err := json.Unmarshal(b, &t); err != nil {
		return t, fmt.Errorf("the price table is not valid JSON: %w", err)
	}
	if t.Date == "" {
		return t, fmt.Errorf("the price table has no date")
	}
	return t, nil
}

// dated is the date suffix vendors put on a model's pinned versions
// ("claude-sonnet-4-5-20250929", "gpt-4.1-2025-04-14").
var dated = regexp.MustCompile(`^-(\d{8}|\d{4}-\d{2}-\d{2})$`)

// Lookup finds a model's price: its exact id, or a listed id followed by
// only a date. Nothing looser: "gpt-5-nano" must never get gpt-5's price.
func (t PriceTable) Lookup(model string) (Price, bool) {
	model = strings.ToLower(strings.TrimSpace(model))
	if p, ok := t.Models[model]; ok {
		return p, true
	}
	for id, p := range t.Models {
		if strings.HasPrefix(model, id) && dated.MatchString(model[len(id):]) {
			return p, true
		}
	}
	return Price{}, false
}

// Cost prices u. The agent's own figure wins; otherwise the table's, with
// CostSource naming the table's date; a model the table does not know
// (or no model at all) leaves the cost empty: "no price". u is not changed.
func (t PriceTable) Cost(u *run.Usage) *run.Usage {
	if u == nil {
		return nil
	}
	out := *u
	if out.CostUSD > 0 {
		if out.CostSource == "" {
			out.CostSource = "agent"
		}
		return &out
	}
	p, ok := t.Lookup(out.Model)
	if !ok {
		return &out
	}
	cacheWrite := p.CacheWrite
	if cacheWrite == 0 {
		cacheWrite = p.Input
	}
	// InputTokens includes cache reads and writes (run.Usage); reasoning
	// tokens are part of OutputTokens, as the vendors bill them.
	fresh := max(out.InputTokens-out.CachedTokens-out.CacheWriteTokens, 0)
	out.CostUSD = (float64(fresh)*p.Input + float64(out.CachedTokens)*p.CachedInput +
		float64(out.CacheWriteTokens)*cacheWrite + float64(out.OutputTokens)*p.Output) / 1e6
	out.CostSource = "prices " + t.Date
	return &out
}
