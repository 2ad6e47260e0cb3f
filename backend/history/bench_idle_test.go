package history_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/history"
)

// wakeups is the number of context switches of every thread of this
// process so far (what scripts/bench-shim.sh counts for the shim and
// serve): each is a wake-up of a thread.
func wakeups(b *testing.B) int64 {
	tasks, err := filepath.Glob("/proc/self/task/*/status")
	if err != nil || len(tasks) == 0 {
		b.Skip("no /proc: wake-ups are counted on Linux only")
	}
	var n int64
	for _, p := range tasks {
		f, err := os.Open(p)
		if err != nil {
			continue // the thread ended meanwhile
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if ok && (k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches") {
				c, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += c
			}
		}
		f.Close()
	}
	return n
}

// rssKB is this process's resident memory.
func rssKB(b *testing.B) int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc")
	}
	for _, l := range bytes.Split(raw, []byte("\n")) {
		if k, v, ok := strings.Cut(string(l), ":"); ok && k == "VmRSS" {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// idleWakeups counts the wake-ups of this process over d of doing nothing.
func idleWakeups(b *testing.B, d time.Duration) float64 {
	runtime.GC()
	before := wakeups(b)
	time.Sleep(d) // the idle window being measured
	return float64(wakeups(b)-before) / d.Minutes()
}

// BenchmarkMirrorIdle10k: the mirror watching 10,000 session files adds
// no idle wake-ups and little memory (issue 28): the same idle window is
// counted without and with the mirror on (fsnotify: the kernel wakes it
// on a write; nothing polls). Run with -benchtime=1x; it reports
// wakeups/min without and with the mirror, and the mirror's memory.
func BenchmarkMirrorIdle10k(b *testing.B) {
	root := plant10k(b)
	window := 10 * time.Second
	if d, err := time.ParseDuration(os.Getenv("HERMESDESK_IDLE_WINDOW")); err == nil {
		window = d
	}
	for i := 0; i < b.N; i++ {
		without := idleWakeups(b, window)
		runtime.GC()
		rss := rssKB(b)
		var heap0 runtime.MemStats
		runtime.ReadMemStats(&heap0)
		calls := 0
		m, err := history.Watch(history.Claude{}, root, func(history.Format, string) { calls++ }, nil)
		if err != nil {
			b.Fatal(err)
		}
		with := idleWakeups(b, window)
		var heap1 runtime.MemStats
		runtime.ReadMemStats(&heap1)
		grown := rssKB(b) - rss
		_ = m.Close()
		if calls != 0 {
			b.Fatalf("the idle mirror imported %d files", calls)
		}
		b.ReportMetric(without, "wakeups/min-off")
		b.ReportMetric(with, "wakeups/min-on")
		b.ReportMetric(float64(grown), "rss-kB-on")
		b.ReportMetric(float64(int64(heap1.HeapAlloc)-int64(heap0.HeapAlloc))/1024, "heap-kB-on")
	}
}
