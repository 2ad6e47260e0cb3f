//go:build desktoptest

package desktop

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkDesktop measures one cold start of the real app (to the window
// mapped, and to the UI painted) and its memory with the window shown and
// hidden: RSS and PSS of main, WebKit's processes and the tray helper.
// Run it with scripts/bench-desktop.sh (make bench-desktop).
func BenchmarkDesktop(b *testing.B) {
	for i := 0; i < b.N; i++ {
		benchOnce(b)
	}
}

func benchOnce(b *testing.B) {
	e := newEnv(b, true)
	start := time.Now()
	a := e.startApp()
	id := e.waitWindow("IsViewable")
	mapped := time.Since(start)
	for rendered(e.screenshot(), e.geometry(id)) != nil {
		if time.Since(start) > 60*time.Second {
			b.Fatal("window never painted")
		}
		time.Sleep(20 * time.Millisecond)
	}
	painted := time.Since(start)
	e.waitItem()
	time.Sleep(3 * time.Second) // let start-up work settle before measuring
	shown := memory(a.pid())

	e.closeWindow(id)
	e.waitWindow("IsUnMapped")
	time.Sleep(3 * time.Second)
	hidden := memory(a.pid())

	b.ReportMetric(float64(mapped.Milliseconds()), "ms-to-window")
	b.ReportMetric(float64(painted.Milliseconds()), "ms-to-painted")
	b.ReportMetric(float64(shown.total().pss)/1024, "MiB-PSS-shown")
	b.ReportMetric(float64(hidden.total().pss)/1024, "MiB-PSS-hidden")
	fmt.Printf("\nstartup: window mapped %v, UI painted %v\n", mapped.Round(time.Millisecond), painted.Round(time.Millisecond))
	fmt.Printf("memory, window shown:\n%s", shown)
	fmt.Printf("memory, window hidden:\n%s", hidden)
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

// memory reads smaps_rollup of the app and all its descendants.
func memory(pid int) memReport {
	pids := append([]int{pid}, childPIDs(pid)...)
	var r memReport
	for _, p := range pids {
		m, ok := rollup(p)
		if !ok {
			continue
		}
		name := filepath.Base(strings.Fields(cmdline(p) + " ?")[0])
		if p == pid {
			name = "hermesdesk (main)"
		} else if strings.HasSuffix(cmdline(p), " tray") {
			name = "hermesdesk tray"
		}
		r = append(r, procMem{name, m})
	}
	sort.SliceStable(r[1:], func(i, j int) bool { return r[1+i].name < r[1+j].name })
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
