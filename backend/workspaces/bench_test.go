package workspaces

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// bigRepo makes a repository of n small files in 200 folders, committed.
func bigRepo(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	git(b, dir, "init", "-q", "-b", "main")
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("d%03d", i%200), fmt.Sprintf("f%05d.txt", i))
		if i < 200 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	git(b, dir, "add", "-A")
	git(b, dir, "commit", "-q", "-m", "many files")
	return dir
}

// BenchmarkCreateWorktree: making a workspace (journal claim, worktree
// add -b, lock, the checks around them) against a plain `git worktree add`
// of the same 20,000-file repository, alternating in one run; the ratio is
// the figure that counts (issue 25: at most 1.3×).
func BenchmarkCreateWorktree(b *testing.B) {
	ctx := context.Background()
	repo := bigRepo(b, 20000)
	st, p := openStore(b, filepath.Join(b.TempDir(), "j.db"), repo)
	m := New(st, nil, nil)
	m.NoSetup = true
	var ours, plain time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		cmd := exec.Command("git", "worktree", "add", "-q", "-b", fmt.Sprintf("plain%d", i), filepath.Join(repo, ".plain", fmt.Sprint(i)), "main")
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
		plain += time.Since(t0)
		t0 = time.Now()
		if _, err := m.Create(ctx, p.ID, ""); err != nil {
			b.Fatal(err)
		}
		ours += time.Since(t0)
	}
	b.StopTimer()
	b.ReportMetric(float64(ours.Milliseconds())/float64(b.N), "ms/create")
	b.ReportMetric(float64(plain.Milliseconds())/float64(b.N), "ms/plain-add")
	b.ReportMetric(float64(ours)/float64(plain), "ratio")
}

// BenchmarkIdleWith50Workspaces: the heap the core keeps after start-up
// recovery has looked at 50 known worktrees (the manager keeps none of
// them in memory: they live in the journal), and how long that look takes.
func BenchmarkIdleWith50Workspaces(b *testing.B) {
	ctx := context.Background()
	repo := newRepo(b)
	st, p := openStore(b, filepath.Join(b.TempDir(), "j.db"), repo)
	m := New(st, nil, nil)
	m.NoSetup = true
	for i := 0; i < 50; i++ {
		if _, err := m.Create(ctx, p.ID, ""); err != nil {
			b.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := New(st, nil, nil).RecoverAll(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapInuse)/(1<<20), "MiB-heap-inuse")
	b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<10), "KiB-heap-growth")
}
