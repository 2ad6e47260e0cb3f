//go:build desktoptest

package desktop

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// BenchmarkDesktop measures the real app (docs/ARCHITECTURE.md
// §Processes): a cold launch from nothing (core + window) to the UI
// painted; memory with the window shown, hidden, and gone after its grace
// period (the day-in-the-tray figure); reopening from the tray warm
// (hidden window alive) and cold (window process started); and one idle
// warm shim. Run it with scripts/bench-desktop.sh (make bench-desktop).
func BenchmarkDesktop(b *testing.B) {
	for i := 0; i < b.N; i++ {
		benchOnce(b)
	}
}

const benchGrace = 3 * time.Second

func benchOnce(b *testing.B) {
	e := newEnv(b, true)
	e.environ = append(e.environ, "HERMESDESK_WINDOW_GRACE="+benchGrace.String())
	start := time.Now()
	e.startApp()
	id := e.waitWindow("IsViewable")
	mapped := time.Since(start)
	e.waitPainted(b, id, start)
	painted := time.Since(start)
	it := e.waitItem()
	time.Sleep(3 * time.Second) // let start-up work settle before measuring
	shown := e.memory()

	e.closeWindow(id)
	e.waitWindow("IsUnMapped")
	time.Sleep(time.Second)
	hidden := e.memory()

	// Warm: the hidden window's process is alive; Open maps it.
	t0 := time.Now()
	e.click(it, labelOpen)
	e.waitWindow("IsViewable")
	warm := time.Since(t0)

	// Gone: hidden past the grace period, the window process exits.
	win := e.windowProc()
	e.closeWindow(id)
	e.waitWindow("IsUnMapped")
	e.waitFor("the window process to exit after its grace", 30*time.Second, func() bool { return processGone(win) })
	time.Sleep(2 * time.Second)
	gone := e.memory()

	// Cold: Open starts a window process.
	t0 = time.Now()
	e.click(it, labelOpen)
	id = e.waitWindow("IsViewable")
	e.waitPainted(b, id, t0)
	cold := time.Since(t0)

	// One idle warm shim (a finished run keeps its agent for the next).
	shim := e.warmShimMemory(b)

	b.ReportMetric(float64(painted.Milliseconds()), "ms-cold-launch")
	b.ReportMetric(float64(warm.Milliseconds()), "ms-open-warm")
	b.ReportMetric(float64(cold.Milliseconds()), "ms-open-cold")
	b.ReportMetric(float64(gone.total().pss)/1024, "MiB-PSS-tray")
	b.ReportMetric(float64(shim.pss)/1024, "MiB-PSS-warm-shim")
	fmt.Printf("\ncold launch from nothing (core + window): window mapped %v, UI painted %v (target ≤ 1.2 s)\n",
		mapped.Round(time.Millisecond), painted.Round(time.Millisecond))
	fmt.Printf("open from the tray, warm (hidden window alive): %v to visible (target ≤ 150 ms)\n", warm.Round(time.Millisecond))
	fmt.Printf("open from the tray, cold (window process started): %v to painted (target ≤ 800 ms)\n", cold.Round(time.Millisecond))
	fmt.Printf("memory, window shown:\n%s", shown)
	fmt.Printf("memory, window hidden (process alive, within its grace):\n%s", hidden)
	fmt.Printf("memory, idle in the tray, window process gone after its grace (target ≤ 20 MiB PSS):\n%s", gone)
	fmt.Printf("one idle warm shim: RSS %.1f MiB  PSS %.1f MiB (target ≤ 8 MiB PSS; its agent not counted)\n",
		float64(shim.rss)/1024, float64(shim.pss)/1024)
}

// waitPainted waits until the window shows the UI.
func (e *env) waitPainted(b *testing.B, id string, since time.Time) {
	for rendered(e.screenshot(), e.geometry(id)) != nil {
		if time.Since(since) > 60*time.Second {
			b.Fatal("window never painted")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// warmShimMemory runs a short demo run and measures its shim once idle.
func (e *env) warmShimMemory(b *testing.B) mem {
	project := filepath.Join(e.home, "bench-project")
	os.MkdirAll(project, 0o755)
	ask := exec.Command(e.bin, "ask", "--agent", "demo", "--project", project, "hello")
	ask.Env = e.environ
	if out, err := ask.CombinedOutput(); err != nil {
		b.Fatalf("ask: %v\n%s", err, out)
	}
	b.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	var pid int
	e.waitFor("the warm shim", 15*time.Second, func() bool {
		recs, _ := filepath.Glob(filepath.Join(e.dataDir, control.WarmDirName, "*.json"))
		if len(recs) != 1 {
			return false
		}
		w, err := control.ReadWarm(e.dataDir, strings.TrimSuffix(filepath.Base(recs[0]), ".json"))
		pid = w.Pid
		return err == nil && pid > 0
	})
	time.Sleep(2 * time.Second)
	m, _ := rollup(pid)
	return m
}

type mem struct{ rss, pss int } // KiB

type procMem struct {
	name string
	mem
}

type memReport []procMem

func (r memReport) total() mem {
	var t mem
	for _, p := range r {
		t.rss += p.rss
		t.pss += p.pss
	}
	return t
}

func (r memReport) String() string {
	var sb strings.Builder
	for _, p := range r {
		fmt.Fprintf(&sb, "  %-28s RSS %7.1f MiB  PSS %7.1f MiB\n", p.name, float64(p.rss)/1024, float64(p.pss)/1024)
	}
	t := r.total()
	fmt.Fprintf(&sb, "  %-28s RSS %7.1f MiB  PSS %7.1f MiB\n", "total", float64(t.rss)/1024, float64(t.pss)/1024)
	return sb.String()
}

// memory reads smaps_rollup of every process of the data dir (the core,
// the window and WebKit's processes) except shims and agents.
func (e *env) memory() memReport {
	var r memReport
	for _, p := range dataDirProcs(e.dataDir) {
		cl := cmdline(p)
		f := strings.Fields(cl + " ?")
		if processGone(p) || len(f) > 1 && (f[1] == "shim" || f[1] == "demo-agent") {
			continue
		}
		m, ok := rollup(p)
		if !ok {
			continue
		}
		name := filepath.Base(f[0])
		if !strings.HasPrefix(name, "hermesdesk") && !strings.HasPrefix(name, "WebKit") {
			continue // the test's window manager, not ours
		}
		if name == "hermesdesk" {
			name = "hermesdesk (core)"
		}
		r = append(r, procMem{name, m})
	}
	sort.SliceStable(r, func(i, j int) bool { return r[i].name < r[j].name })
	return r
}

func rollup(pid int) (mem, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return mem{}, false
	}
	var m mem
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "Rss:":
			m.rss = n
		case "Pss:":
			m.pss = n
		}
	}
	return m, true
}
