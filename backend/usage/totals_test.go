package usage

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseQuery(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		group, since string
		want         Query
		err          string
	}{
		{"", "", Query{ByDay, "2026-10-29"}, ""},
		{"agent", "2026-01-01", Query{ByAgent, "2026-01-01"}, ""},
		{"model", "", Query{ByModel, "2026-10-29"}, ""},
		{"project", "", Query{ByProject, "2026-10-29"}, ""},
		{"week", "", Query{}, "group must be day, agent, model or project"},
		{"day", "yesterday", Query{}, "since must be a date like"},
		{"day", "2026-13-01", Query{}, "since must be a date like"},
	}
	for _, tt := range tests {
		got, err := ParseQuery(tt.group, tt.since, now)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseQuery(%q, %q) error = %v, want %q", tt.group, tt.since, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseQuery(%q, %q) = %+v, %v; want %+v", tt.group, tt.since, got, err, tt.want)
		}
	}
}

var sample = []Day{
	{Day: "2026-11-01", ProjectID: "p1", ProjectName: "site", Agent: "codex", Model: "gpt-5", Counts: Counts{Runs: 2, InputTokens: 100, OutputTokens: 10, CostUSD: 1}},
	{Day: "2026-11-01", ProjectID: "p2", ProjectName: "", Agent: "claude", Model: "claude-sonnet-4-5", Counts: Counts{Runs: 1, InputTokens: 50, OutputTokens: 5, CostUSD: 2}},
	{Day: "2026-11-02", ProjectID: "p1", ProjectName: "site", Agent: "codex", Model: "", Counts: Counts{Runs: 3, InputTokens: 30, OutputTokens: 3, UnpricedRuns: 3}},
	{Day: "2026-11-02", ProjectID: "p1", ProjectName: "site", Agent: "claude", Model: "claude-sonnet-4-5", Counts: Counts{Runs: 1, InputTokens: 10, OutputTokens: 1, CostUSD: 0.5}},
}

func TestSummarize(t *testing.T) {
	type line struct {
		key, label string
		runs       int64
		cost       float64
	}
	tests := []struct {
		q    Query
		want []line
	}{
		{Query{ByDay, "2026-01-01"}, []line{{"2026-11-01", "2026-11-01", 3, 3}, {"2026-11-02", "2026-11-02", 4, 0.5}}},
		{Query{ByAgent, "2026-01-01"}, []line{{"claude", "claude", 2, 2.5}, {"codex", "codex", 5, 1}}},
		{Query{ByModel, "2026-01-01"}, []line{{"claude-sonnet-4-5", "claude-sonnet-4-5", 2, 2.5}, {"gpt-5", "gpt-5", 2, 1}, {"", "unknown model", 3, 0}}},
		{Query{ByProject, "2026-01-01"}, []line{{"p2", "p2", 1, 2}, {"p1", "site", 6, 1.5}}},
		// since cuts rows the source gave anyway
		{Query{ByAgent, "2026-11-02"}, []line{{"claude", "claude", 1, 0.5}, {"codex", "codex", 3, 0}}},
	}
	for _, tt := range tests {
		t.Run(string(tt.q.Group)+" "+tt.q.Since, func(t *testing.T) {
			r := Summarize(sample, tt.q)
			var got []line
			var sum Counts
			for _, row := range r.Rows {
				got = append(got, line{row.Key, row.Label, row.Runs, row.CostUSD})
				sum.add(row.Counts)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("rows = %+v\nwant   %+v", got, tt.want)
			}
			if sum != r.Total || r.PriceDate != Prices.Date {
				t.Errorf("total %+v, rows add to %+v; price date %q", r.Total, sum, r.PriceDate)
			}
		})
	}
}

func TestSummarizeDaySplitsByAgent(t *testing.T) {
	r := Summarize(sample, Query{ByDay, "2026-01-01"})
	want := map[string]Counts{
		"codex":  {Runs: 2, InputTokens: 100, OutputTokens: 10, CostUSD: 1},
		"claude": {Runs: 1, InputTokens: 50, OutputTokens: 5, CostUSD: 2},
	}
	if !reflect.DeepEqual(r.Rows[0].Agents, want) {
		t.Fatalf("first day by agent = %+v", r.Rows[0].Agents)
	}
	if r := Summarize(sample, Query{ByAgent, "2026-01-01"}); r.Rows[0].Agents != nil {
		t.Fatalf("agent rows carry a split: %+v", r.Rows[0])
	}
	if r := Summarize(nil, Query{ByDay, "2026-01-01"}); r.Rows == nil || len(r.Rows) != 0 {
		t.Fatalf("no data = %+v, want an empty list", r.Rows)
	}
}

type failing struct{}

func (failing) UsageDays(context.Context, string) ([]Day, error) { return nil, errors.New("disk gone") }

func TestTotalsSaysWhyItFailed(t *testing.T) {
	_, err := Totals(context.Background(), failing{}, Query{ByDay, "2026-01-01"})
	if err == nil || !strings.HasPrefix(err.Error(), "usage totals could not be read") {
		t.Fatalf("err = %v", err)
	}
}

func TestWriteCSV(t *testing.T) {
	r := Summarize(append(sample, Day{Day: "2026-11-02", ProjectID: "p3", ProjectName: "=HYPERLINK(\"x\")", Agent: "codex", Counts: Counts{Runs: 1}}),
		Query{ByProject, "2026-01-01"})
	var b bytes.Buffer
	if err := WriteCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	want := `project,runs,input_tokens,cached_tokens,cache_write_tokens,output_tokens,reasoning_tokens,cost_usd,unpriced_runs
p2,1,50,0,0,5,0,2.000000,0
site,6,140,0,0,14,0,1.500000,3
"'=HYPERLINK(""x"")",1,0,0,0,0,0,0.000000,0
total,8,190,0,0,19,0,3.500000,3
`
	if b.String() != want {
		t.Fatalf("csv =\n%s\nwant\n%s", b.String(), want)
	}
}
