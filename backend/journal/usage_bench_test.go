package journal

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/usage"
)

// BenchmarkUsageTotals: totals over a year of 1,000,000 ended runs (5
// agents, 4 models, 20 projects), added through the same addRunUsage the
// deriver calls on commit. Target ≤ 100 ms per answer (issue 29).
//
//	go test -tags sqlite_fts5 -run '^$' -bench UsageTotals -benchtime 20x ./backend/journal/
func BenchmarkUsageTotals(b *testing.B) {
	const runs = 1_000_000
	s, err := Open(b.TempDir()+"/journal.db", Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now().AddDate(-1, 0, 0)
	step := float64(365*24*3600) / runs
	began := time.Now()
	for i := range runs {
		at := float64(start.Unix()) + float64(i)*step
		u := &run.Usage{InputTokens: int64(1000 + i%5000), OutputTokens: int64(100 + i%700), CachedTokens: int64(i % 900),
			CostUSD: float64(i%100) / 1000, Model: fmt.Sprintf("model-%d", i%4)}
		if err := addRunUsage(ctx, tx, at, fmt.Sprintf("proj_%02d", i%20), fmt.Sprintf("agent-%d", i%5), "", u); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	b.Logf("added %d runs in %v (%v a run)", runs, time.Since(began), time.Since(began)/runs)
	since := start.Format(time.DateOnly)
	for _, g := range []usage.Group{usage.ByAgent, usage.ByDay, usage.ByProject} {
		b.Run(string(g), func(b *testing.B) {
			for b.Loop() {
				r, err := usage.Totals(ctx, s, usage.Query{Group: g, Since: since})
				if err != nil {
					b.Fatal(err)
				}
				if r.Total.Runs != runs {
					b.Fatalf("total runs %d", r.Total.Runs)
				}
			}
		})
	}
}
