package checkpoints

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

// The figures the issue sets (docs/ARCHITECTURE.md §Checkpoints): a
// checkpoint of a 20,000-file repository with 10 changed files, p50 ≤ 150
// ms (the stat cache of the person's index is reused); an undo of a
// 50-file run ≤ 1 s. Run: go test -tags sqlite_fts5 -run '^$' -bench . ./backend/checkpoints/

func bigRepo(b *testing.B, files int) string {
	b.Helper()
	ws := b.TempDir()
	git(b, ws, "init", "-q")
	for i := 0; i < files; i++ {
		p := filepath.Join(ws, fmt.Sprintf("d%03d/f%05d.txt", i/100, i))
		if i%100 == 0 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		os.WriteFile(p, []byte(fmt.Sprintf("file %d\nline two\n", i)), 0o644)
	}
	git(b, ws, "-c", "gc.auto=0", "add", "-A")
	git(b, ws, "-c", "gc.auto=0", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "base")
	return ws
}

// report prints the wall time's p50 and max, and the CPU time (this
// process and its git children) per operation's p50: on a shared machine
// the wall time measures the load as much as the work.
func report(b *testing.B, what string, ds, cpu []time.Duration) {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	sort.Slice(cpu, func(i, j int) bool { return cpu[i] < cpu[j] })
	p50 := ds[len(ds)/2]
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(ds[len(ds)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds())/1000, "cpu-p50-ms")
	fmt.Printf("%s: n=%d wall p50=%v max=%v; cpu p50=%v\n", what, len(ds), p50.Round(time.Millisecond),
		ds[len(ds)-1].Round(time.Millisecond), cpu[len(cpu)/2].Round(time.Millisecond))
}

// cpuTime is the CPU this process and its waited-for children used.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

func BenchmarkCheckpoint20kFiles10Changed(b *testing.B) {
	gitcmdtest.Need(b)
	ctx := context.Background()
	ws := bigRepo(b, 20000)
	data := b.TempDir()
	l := ledger(b, data)
	var ds, cpu []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for j := 0; j < 10; j++ {
			p := filepath.Join(ws, fmt.Sprintf("d%03d/f%05d.txt", j, j*100+i%100))
			os.WriteFile(p, []byte(fmt.Sprintf("changed %d %d\n", i, j)), 0o644)
		}
		b.StartTimer()
		start, c0 := time.Now(), cpuTime()
		k, err := Before(ctx, l, Target{DataDir: data, Workspace: ws, SessionID: "ses_b", TurnID: fmt.Sprintf("turn_%d", i), RunID: fmt.Sprintf("run_%d", i)})
		if err != nil {
			b.Fatal(err)
		}
		ds, cpu = append(ds, time.Since(start)), append(cpu, cpuTime()-c0)
		k.Close()
	}
	b.StopTimer()
	report(b, "checkpoint of 20,000 files, 10 changed", ds, cpu)
}

// The run's start snapshot alone, as before checkpoints: the checkpoint
// adds to a run's start only its difference from this.
func BenchmarkSnapshotOnly20kFiles10Changed(b *testing.B) {
	gitcmdtest.Need(b)
	ctx := context.Background()
	ws := bigRepo(b, 20000)
	var ds, cpu []time.Duration
	for i := 0; i < b.N; i++ {
		for j := 0; j < 10; j++ {
			p := filepath.Join(ws, fmt.Sprintf("d%03d/f%05d.txt", j, j*100+i%100))
			os.WriteFile(p, []byte(fmt.Sprintf("changed %d %d\n", i, j)), 0o644)
		}
		start, c0 := time.Now(), cpuTime()
		s, err := changes.Open(ctx, ws)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Snapshot(ctx); err != nil {
			b.Fatal(err)
		}
		ds, cpu = append(ds, time.Since(start)), append(cpu, cpuTime()-c0)
		s.Close()
	}
	report(b, "the start snapshot alone (no checkpoint)", ds, cpu)
}

func BenchmarkUndo50Files(b *testing.B) {
	gitcmdtest.Need(b)
	ctx := context.Background()
	ws := bigRepo(b, 2000)
	data := b.TempDir()
	l := ledger(b, data)
	var ds, cpu []time.Duration
	for i := 0; i < b.N; i++ {
		id := fmt.Sprintf("run_%d", i)
		runAround(b, l, data, ws, id, func() {
			for j := 0; j < 50; j++ {
				p := filepath.Join(ws, fmt.Sprintf("d%03d/f%05d.txt", j, j*10+i%10))
				if j%5 == 0 {
					p = filepath.Join(ws, fmt.Sprintf("new%d/n%03d.txt", i, j))
					os.MkdirAll(filepath.Dir(p), 0o755)
				}
				os.WriteFile(p, []byte(fmt.Sprintf("run %d wrote %d\n", i, j)), 0o644)
			}
		})
		start, c0 := time.Now(), cpuTime()
		if _, err := Undo(ctx, l, data, "cp_"+id); err != nil {
			b.Fatal(err)
		}
		ds, cpu = append(ds, time.Since(start)), append(cpu, cpuTime()-c0)
	}
	report(b, "undo of a 50-file run", ds, cpu)
}
