package journal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// TestSeedUsageYear is not a test but the seeder of scripts/bench-usage.sh
// (issue 29, docs/ARCHITECTURE.md §Usage): with HERMESDESK_SEED_USAGE set to
// a data dir it writes a year of usage into that dir's journal (file name
// as service/stack.DBFile) through the journal's own CreateProject and
// addRunUsage (what the deriver calls on a done event): 365 days × 5
// agents × 4 models × 6 projects, a few runs each. Skipped otherwise.
func TestSeedUsageYear(t *testing.T) {
	dir := os.Getenv("HERMESDESK_SEED_USAGE")
	if dir == "" {
		t.Skip("HERMESDESK_SEED_USAGE names the data dir to seed (scripts/bench-usage.sh)")
	}
	s, err := Open(filepath.Join(dir, "hermesdesk.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	var projects []string
	for i := range 6 {
		ws := filepath.Join(dir, fmt.Sprintf("project-%d", i))
		if err := os.MkdirAll(ws, 0o755); err != nil {
			t.Fatal(err)
		}
		p, err := s.CreateProject(ctx, fmt.Sprintf("project %d", i), ws)
		if err != nil {
			t.Fatal(err)
		}
		projects = append(projects, p.ID)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	agents := []string{"claude", "codex", "gemini", "qwen", "demo"}
	// Noon of each day, so the local day never slips across midnight.
	today := time.Now()
	noon := time.Date(today.Year(), today.Month(), today.Day(), 12, 0, 0, 0, time.Local)
	runs := 0
	for d := range 365 {
		at := float64(noon.AddDate(0, 0, -d).Unix())
		for a, agent := range agents {
			for m := range 4 {
				for p, proj := range projects {
					for r := range 1 + (d+a+m+p)%3 {
						u := &run.Usage{InputTokens: int64(2000 + (d*7+r)%5000), OutputTokens: int64(300 + (d+a)%700),
							CachedTokens: int64(d % 900), CostUSD: float64((d+m)%100) / 1000, Model: fmt.Sprintf("%s-model-%d", agent, m)}
						if err := addRunUsage(ctx, tx, at, proj, agent, "", u); err != nil {
							t.Fatal(err)
						}
						runs++
					}
				}
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded %d runs over 365 days into %s", runs, dir)
}
