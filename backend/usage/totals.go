package usage

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Day is one day's usage of one agent and model in one project: the rows
// the journal keeps up to date as runs end (docs/ARCHITECTURE.md §Usage).
type Day struct {
	Day         string // YYYY-MM-DD, the person's local day the run ended
	ProjectID   string
	ProjectName string
	Agent       string
	Model       string
	Counts
}

// Counts adds up runs.
type Counts struct {
	Runs             int64   `json:"runs"`
	InputTokens      int64   `json:"input_tokens"`
	OutputTokens     int64   `json:"output_tokens"`
	ReasoningTokens  int64   `json:"reasoning_tokens"`
	CachedTokens     int64   `json:"cached_tokens"`
	CacheWriteTokens int64   `json:"cache_write_tokens"`
	CostUSD          float64 `json:"cost_usd"`
	// UnpricedRuns spent tokens with no known price: the cost is a floor.
	UnpricedRuns int64 `json:"unpriced_runs"`
}

func (c *Counts) add(o Counts) {
	c.Runs += o.Runs
	c.InputTokens += o.InputTokens
	c.OutputTokens += o.OutputTokens
	c.ReasoningTokens += o.ReasoningTokens
	c.CachedTokens += o.CachedTokens
	c.CacheWriteTokens += o.CacheWriteTokens
	c.CostUSD += o.CostUSD
	c.UnpricedRuns += o.UnpricedRuns
}

// Source reads the journal's daily rows from since (YYYY-MM-DD) on.
type Source interface {
	UsageDays(ctx context.Context, since string) ([]Day, error)
}

// Group is how totals are cut.
type Group string

const (
	ByDay     Group = "day"
	ByAgent   Group = "agent"
	ByModel   Group = "model"
	ByProject Group = "project"
)

// Query asks for totals.
type Query struct {
	Group Group
	Since string // YYYY-MM-DD; empty: DefaultDays back from today
}

// DefaultDays is how far back totals go when the query does not say.
const DefaultDays = 30

// Row is one line of totals. Agents holds the day's split by agent when
// grouping by day (the chart's series).
type Row struct {
	Key    string            `json:"key"`
	Label  string            `json:"label"`
	Agents map[string]Counts `json:"agents,omitempty"`
	Counts
}

// Report is the answer: rows in order, their sum, and the price table's date.
type Report struct {
	Group     Group  `json:"group"`
	Since     string `json:"since"`
	PriceDate string `json:"price_date"`
	Rows      []Row  `json:"rows"`
	Total     Counts `json:"total"`
}

// ParseQuery checks a query's words, saying in plain words what is wrong.
// now gives "today" for the default since.
func ParseQuery(group, since string, now time.Time) (Query, error) {
	q := Query{Group: Group(group), Since: since}
	switch q.Group {
	case "":
		q.Group = ByDay
	case ByDay, ByAgent, ByModel, ByProject:
	default:
		return q, fmt.Errorf("group must be day, agent, model or project, not %q", group)
	}
	if q.Since == "" {
		q.Since = now.AddDate(0, 0, -(DefaultDays - 1)).Format(time.DateOnly)
	} else if _, err := time.Parse(time.DateOnly, q.Since); err != nil {
		return q, fmt.Errorf("since must be a date like 2025-10-01, not %q", since)
	}
	return q, nil
}

// Totals answers q from src.
func Totals(ctx context.Context, src Source, q Query) (Report, error) {
	days, err := src.UsageDays(ctx, q.Since)
	if err != nil {
		return Report{}, fmt.Errorf("usage totals could not be read: %w", err)
	}
	return Summarize(days, q), nil
}

// Summarize groups days rows (pure; table-tested). Days come oldest first;
// other groups largest cost first, then most tokens, then by name.
func Summarize(days []Day, q Query) Report {
	r := Report{Group: q.Group, Since: q.Since, PriceDate: Prices.Date, Rows: []Row{}}
	at := map[string]int{}
	for _, d := range days {
		if d.Day < q.Since {
			continue
		}
		key, label := d.Day, d.Day
		switch q.Group {
		case ByAgent:
			key, label = d.Agent, d.Agent
		case ByModel:
			key, label = d.Model, d.Model
			if key == "" {
				label = "unknown model"
			}
		case ByProject:
			key, label = d.ProjectID, d.ProjectName
			if label == "" {
				label = d.ProjectID
			}
		}
		i, ok := at[key]
		if !ok {
			i = len(r.Rows)
			at[key] = i
			r.Rows = append(r.Rows, Row{Key: key, Label: label})
		}
		r.Rows[i].add(d.Counts)
		if q.Group == ByDay {
			if r.Rows[i].Agents == nil {
				r.Rows[i].Agents = map[string]Counts{}
			}
			c := r.Rows[i].Agents[d.Agent]
			c.add(d.Counts)
			r.Rows[i].Agents[d.Agent] = c
		}
		r.Total.add(d.Counts)
	}
	slices.SortFunc(r.Rows, func(a, b Row) int {
		if q.Group == ByDay {
			return strings.Compare(a.Key, b.Key)
		}
		switch {
		case a.CostUSD != b.CostUSD:
			return cmp.Compare(b.CostUSD, a.CostUSD)
		case a.InputTokens+a.OutputTokens != b.InputTokens+b.OutputTokens:
			return cmp.Compare(b.InputTokens+b.OutputTokens, a.InputTokens+a.OutputTokens)
		}
		return strings.Compare(a.Key, b.Key)
	})
	return r
}
