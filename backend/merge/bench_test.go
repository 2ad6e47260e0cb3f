package merge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"
)

// The figure the issue sets (docs/ARCHITECTURE.md §Merge): a merge
// preview of two workspaces of a 20,000-file repository with 50 changed
// files each, p50 ≤ 150 ms. One workspace's changes are committed, the
// other's uncommitted (the preview commits them through a temporary index
// first). Run: go test -run '^$' -bench Preview -benchtime 20x ./backend/merge/
func BenchmarkPreview20kFiles50Changed(b *testing.B) {
	lookGit(b)
	root := b.TempDir()
	top := filepath.Join(root, "repo")
	gitT(b, root, "init", "-q", "-b", "main", top)
	for i := 0; i < 20000; i++ {
		p := filepath.Join(top, fmt.Sprintf("d%03d/f%05d.txt", i/100, i))
		if i%100 == 0 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		os.WriteFile(p, []byte(fmt.Sprintf("file %d\nline two\n", i)), 0o644)
	}
	gitT(b, top, "-c", "gc.auto=0", "add", "-A")
	gitT(b, top, "-c", "gc.auto=0", "commit", "-qm", "base")
	var targets []Target
	for w := 0; w < 2; w++ {
		wt := filepath.Join(root, fmt.Sprintf("wt%d", w))
		branch := fmt.Sprintf("hermesdesk/b%d", w)
		gitT(b, top, "worktree", "add", "-q", "-b", branch, wt, "main")
		for j := 0; j < 50; j++ {
			p := filepath.Join(wt, fmt.Sprintf("d%03d/f%05d.txt", (j*4+w)%200, ((j*4+w)%200)*100+j))
			os.WriteFile(p, []byte(fmt.Sprintf("workspace %d changed %d\n", w, j)), 0o644)
		}
		if w == 0 {
			gitT(b, wt, "-c", "gc.auto=0", "commit", "-qam", "work")
		}
		gitT(b, wt, "update-index", "-q", "--refresh")
		targets = append(targets, Target{WorkspaceID: fmt.Sprintf("wsp_%d", w), Top: top, Path: wt, Branch: branch, Base: "main", Title: "bench"})
	}
	ctx := context.Background()
	var ds, cpu []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range targets {
			start, c0 := time.Now(), cpuTime()
			p, err := PreviewOf(ctx, t, Squash)
			if err != nil {
				b.Fatal(err)
			}
			ds, cpu = append(ds, time.Since(start)), append(cpu, cpuTime()-c0)
			if !p.Clean || len(p.Files) != 50 || p.Refusal != "" {
				b.Fatalf("%+v", p)
			}
		}
	}
	b.StopTimer()
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	sort.Slice(cpu, func(i, j int) bool { return cpu[i] < cpu[j] })
	p50 := ds[len(ds)/2]
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds())/1000, "cpu-p50-ms")
	fmt.Printf("merge preview, 20,000 files, 50 changed: n=%d wall p50=%v max=%v; cpu p50=%v\n", len(ds), p50.Round(time.Millisecond),
		ds[len(ds)-1].Round(time.Millisecond), cpu[len(cpu)/2].Round(time.Millisecond))
}

// cpuTime is the CPU this process and its waited-for children (git) used:
// on a shared machine the wall time measures the load as much as the work.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}
