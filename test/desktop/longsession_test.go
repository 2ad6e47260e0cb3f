//go:build desktoptest

package desktop

import (
	"context"
	"crypto/sha256"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// BenchmarkDesktopLongSession is the window's memory over a long session
// (issue 23.20, docs/ARCHITECTURE.md §Memory): one session open in the real
// window while N demo runs (HERMESDESK_BENCH_RUNS, default 150; each a
// Markdown answer with a code block and a tool card, or a plan and a tool
// that writes a file) stream into it, then read from its end to its start
// with the mouse wheel, then left alone. It prints the RSS/PSS of the core,
// the window and WebKit's processes at each step; no timed assertions.
// make bench-desktop runs it after BenchmarkDesktop.
func BenchmarkDesktopLongSession(b *testing.B) {
	for i := 0; i < b.N; i++ {
		longSessionOnce(b)
	}
}

func longSessionOnce(b *testing.B) {
	runs := 150
	if n, err := strconv.Atoi(os.Getenv("HERMESDESK_BENCH_RUNS")); err == nil && n > 0 {
		runs = n
	}
	e := newEnv(b, true)
	b.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	start := time.Now()
	e.startApp()
	id := e.waitWindow("IsViewable")
	e.waitPainted(b, id, start)
	e.sizeWindow(id, 1280, 800)
	it := e.waitItem()
	c := e.client()
	ctx := context.Background()

	project := filepath.Join(e.home, "long-project")
	os.MkdirAll(project, 0o755)
	var p run.Project
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: project}, &p); err != nil {
		b.Fatal(err)
	}
	var s run.Session
	if err := c.Call(ctx, "POST", "/api/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo", Title: "long session"}, &s); err != nil {
		b.Fatal(err)
	}

	// The first run asks for an approval, so the tray lists it and its
	// "Open session" shows the session in the window, as a person would
	// open it; the approval card says it is open.
	first := e.sendMessage(c, s.ID, "/scenario approval\nlist my files")
	win := e.geometry(id)
	clicked := time.Time{}
	e.waitFor("the session open in the window", 60*time.Second, func() bool {
		// The window may hear of the click before it has listed the
		// session: click again until it shows.
		if time.Since(clicked) > 3*time.Second {
			e.clickDeep(it, traystate.LabelOpenRun)
			clicked = time.Now()
		}
		return needsYou(e.screenshot(), win) > 5000
	})
	var r run.Run
	e.waitFor("the approval asked", 15*time.Second, func() bool {
		return c.Call(ctx, "GET", "/api/runs/"+first, nil, &r) == nil && r.PendingApprovalID != ""
	})
	var res run.ControlResult
	if err := c.Call(ctx, "POST", "/api/runs/"+first+"/approvals/"+r.PendingApprovalID, map[string]string{"choice": "allow-once"}, &res); err != nil || !res.Accepted {
		b.Fatalf("approve: %+v %v", res, err)
	}
	e.waitRunDone(first, 120*time.Second)
	time.Sleep(3 * time.Second)
	opened := e.memory()

	// The runs, one after another as a person sends them, while the
	// window shows the session and follows each.
	t0 := time.Now()
	scenarios := []string{"demo", "tool"}
	for i := 1; i < runs; i++ {
		e.waitRunDone(e.sendMessage(c, s.ID, fmt.Sprintf("/scenario %s\nturn %d", scenarios[i%len(scenarios)], i)), 120*time.Second)
	}
	took := time.Since(t0)
	time.Sleep(3 * time.Second)
	followed := e.memory()

	// Read it from the end to the start: wheel up over the transcript until
	// it no longer moves (older turns unfold as they come into view).
	pane := image.Rect(win.Min.X+330, win.Min.Y+80, win.Max.X-20, win.Max.Y-160)
	e.must("xdotool", "mousemove", itoa(pane.Min.X+pane.Dx()/2), itoa(pane.Min.Y+pane.Dy()/2))
	t0 = time.Now()
	still, notches := 0, 0
	last := paneHash(e.screenshot(), pane)
	// A loaded machine paints late: the pane must stay still for several
	// batches, and a 150-run session takes ~1000 notches.
	for still < 5 && time.Since(t0) < 15*time.Minute {
		e.must("xdotool", "click", "--repeat", "10", "--delay", "30", "4")
		notches += 10
		time.Sleep(300 * time.Millisecond)
		now := paneHash(e.screenshot(), pane)
		if now == last && notches >= 5*runs {
			still++
		} else {
			still = 0
		}
		last = now
	}
	read := time.Since(t0)
	time.Sleep(3 * time.Second)
	scrolled := e.memory()
	saveShot(crop(e.screenshot(), win), "long-session-top.png")

	// Left alone: what the engine gives back on its own.
	time.Sleep(30 * time.Second)
	settled := e.memory()

	b.ReportMetric(float64(windowMem(scrolled).rss)/1024, "MiB-RSS-window-read")
	b.ReportMetric(float64(windowMem(settled).rss)/1024, "MiB-RSS-window-settled")
	fmt.Printf("\nlong session: %d runs in one session (%v, the window following them), read end to start with %d wheel notches (%v)\n",
		runs, took.Round(time.Second), notches, read.Round(time.Second))
	fmt.Printf("memory, the session open (1 run):\n%s", opened)
	fmt.Printf("memory, after %d runs streamed into the open session:\n%s", runs, followed)
	fmt.Printf("memory, after reading it from the end to the start:\n%s", scrolled)
	fmt.Printf("memory, 30 s later:\n%s", settled)
	for _, m := range []struct {
		what string
		r    memReport
	}{{"open", opened}, {"runs", followed}, {"read", scrolled}, {"settled", settled}} {
		w := windowMem(m.r)
		fmt.Printf("window + WebKit, %-8s RSS %6.1f MiB  PSS %6.1f MiB\n", m.what+":", float64(w.rss)/1024, float64(w.pss)/1024)
	}
	fmt.Printf("(target: the window with WebKit's helpers stays about where a fresh window is, README §Processes: ~230 MiB RSS)\n")
}

// windowMem sums the window's processes (hermesdesk-window and WebKit's).
func windowMem(r memReport) mem {
	var t mem
	for _, p := range r {
		if p.name != "hermesdesk (core)" {
			t.rss += p.rss
			t.pss += p.pss
		}
	}
	return t
}

// sendMessage sends message in the session and returns its run's id.
func (e *env) sendMessage(c *httpapi.Client, sessionID, message string) string {
	e.t.Helper()
	var res run.StartResult
	req := run.StartRequest{SessionID: sessionID, Message: message, ClientRequestID: service.NewRequestID()}
	if err := c.Call(context.Background(), "POST", "/api/runs", req, &res); err != nil {
		e.t.Fatalf("start a run: %v", err)
	}
	return res.RunID
}

// paneHash tells whether the transcript moved between two screenshots.
func paneHash(img image.Image, r image.Rectangle) [32]byte {
	h := sha256.New()
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			h.Write([]byte{byte(cr >> 8), byte(cg >> 8), byte(cb >> 8)})
		}
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}
