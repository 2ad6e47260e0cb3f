package radar

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"testing"
	"time"
)

// benchFiles is the benchmark repository's size.
const benchFiles = 5000

// BenchmarkRadarEightWorkspaces: 8 active worktrees of one repository,
// each with uncommitted edits (two of them on the same line); one changes
// again and the radar passes. Prints p50 and max of that pass
// (docs/ARCHITECTURE.md §Conflict radar, budget ≤ 1 s).
func BenchmarkRadarEightWorkspaces(b *testing.B) {
	r := newRepo(b, benchFiles)
	paths := map[string]string{}
	for i := 0; i < 8; i++ {
		id := fmt.Sprintf("w%d", i)
		paths[id] = r.worktree(id, i)
		for f := 0; f < 5; f++ {
			n := (i*37 + f*11) % benchFiles
			write(b, paths[id], fmt.Sprintf("pkg/%03d/f%05d.txt", n%100, n), fmt.Sprintf("edited by %s\n", id))
		}
	}
	write(b, paths["w0"], "api/server.go", server(map[int]string{5: "five by w0"}))
	write(b, paths["w7"], "api/server.go", server(map[int]string{5: "five by w7"}))
	rad := New(r.src, RealGit(), slog.New(slog.DiscardHandler))
	ctx := context.Background()
	rad.pass(ctx, "p", nil) // every workspace taken once
	if c, _ := rad.Conflicts("p"); len(c.Overlaps) != 1 {
		b.Fatalf("overlaps = %+v, want w0–w7", c.Overlaps)
	}
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		write(b, paths["w3"], "api/client.go", fmt.Sprintf("client 1 edit %d\nclient 2\n", i))
		start := time.Now()
		rad.pass(ctx, "p", map[string]bool{"w3": true})
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	p50, max := took[len(took)/2], took[len(took)-1]
	b.ReportMetric(float64(p50.Milliseconds()), "p50-ms")
	b.ReportMetric(float64(max.Milliseconds()), "max-ms")
	fmt.Printf("radar, 8 workspaces of a %d-file repository, one changed: p50 %v, max %v over %d passes\n",
		benchFiles, p50.Round(time.Millisecond), max.Round(time.Millisecond), len(took))
	if max > time.Second {
		b.Errorf("a pass took %v, over the 1 s budget", max)
	}
}
