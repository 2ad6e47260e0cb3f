//go:build desktoptest

package desktop

import (
	"bufio"
	"fmt"
	"image"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// dragSource is testdata/dragsource.c running on the test's display: a
// window that offers files the way a file manager does.
type dragSource struct {
	e     *env
	cmd   *exec.Cmd
	lines chan string
}

// stop ends the helper, so the next one's window is the only dnd-source.
func (d *dragSource) stop() { killGroup(d.cmd) }

func buildDragSource(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler for the drag source")
	}
	flags, err := exec.Command("pkg-config", "--cflags", "--libs", "gtk+-3.0").Output()
	if err != nil {
		t.Skipf("no GTK 3 development files for the drag source: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "dragsource")
	args := append([]string{"-o", bin, "testdata/dragsource.c"}, strings.Fields(string(flags))...)
	if out, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
		t.Fatalf("building the drag source: %v\n%s", err, out)
	}
	return bin
}

func (e *env) startDragSource(bin string, args ...string) *dragSource {
	e.t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = e.environ
	out, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { killGroup(cmd) })
	d := &dragSource{e: e, cmd: cmd, lines: make(chan string, 16)}
	go func() {
		s := bufio.NewScanner(out)
		for s.Scan() {
			d.lines <- s.Text()
		}
		close(d.lines)
	}()
	d.expect("ready", 15*time.Second)
	return d
}

// expect waits for a line of the helper's output starting with prefix.
func (d *dragSource) expect(prefix string, timeout time.Duration) string {
	d.e.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-d.lines:
			if !ok {
				d.e.t.Fatalf("drag source exited before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			d.e.t.Fatalf("drag source: no %q within %v", prefix, timeout)
		}
	}
}

// titled waits for a viewable top-level window with this exact name.
func (e *env) titled(name string) image.Rectangle {
	e.t.Helper()
	var r image.Rectangle
	e.waitFor("window "+name, 15*time.Second, func() bool {
		out, err := e.output("xdotool", "search", "--onlyvisible", "--name", "^"+name+"$")
		if err != nil || strings.TrimSpace(out) == "" {
			return false
		}
		r = e.geometry(strings.Fields(out)[0])
		return r.Dx() > 0
	})
	return r
}

// drag presses the first button at from, moves in small steps to to and
// releases it there: what a hand does, which GTK turns into an XDND drag.
func (e *env) drag(from, to image.Point) {
	e.t.Helper()
	e.must("xdotool", "mousemove", fmt.Sprint(from.X), fmt.Sprint(from.Y))
	time.Sleep(100 * time.Millisecond)
	e.must("xdotool", "mousedown", "1")
	const steps = 24
	for i := 1; i <= steps; i++ {
		x := from.X + (to.X-from.X)*i/steps
		y := from.Y + (to.Y-from.Y)*i/steps
		e.must("xdotool", "mousemove", fmt.Sprint(x), fmt.Sprint(y))
		time.Sleep(30 * time.Millisecond)
	}
	// A few moves over the target, so it answers XdndPosition before the drop.
	for i := 0; i < 4; i++ {
		e.must("xdotool", "mousemove", fmt.Sprint(to.X+i%2), fmt.Sprint(to.Y))
		time.Sleep(80 * time.Millisecond)
	}
	e.must("xdotool", "mouseup", "1")
}

func centre(r image.Rectangle) image.Point {
	return image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
}

// TestDropKeepsTheApp drops a text file, an .html file and a link to a web
// page on the window: the app must stay (no navigation to file:///… or to
// the page) and the page's script must not run (issue: a dropped file
// replaced the app), and the webview's own navigation guard
// (app/webview_linux.c) is on beside the page's.
func TestDropKeepsTheApp(t *testing.T) {
	src := buildDragSource(t)
	var hits atomic.Int32
	var served []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write(served) // loading the dropped link is a hit already
	}))
	defer srv.Close()

	e := newEnv(t, false)
	e.startApp()
	id := e.waitWindow("IsViewable")
	// Room on the right for the drag source's windows.
	e.sizeWindow(id, 1000, 760)
	e.waitRendered(id, "drop-before.png")

	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	page := filepath.Join(dir, "page.html")
	os.WriteFile(text, []byte("just some notes\n"), 0o644)
	// Magenta and a beacon: either shows that the page replaced the app.
	html := []byte(`<!doctype html><title>dropped</title>
<body style="background:#ff00ff"><script>
fetch("` + srv.URL + `/ran").catch(()=>{}); new Image().src = "` + srv.URL + `/img";
</script></body>`)
	os.WriteFile(page, html, 0o644)
	served = html
	link := srv.URL + "/page.html"

	// The drag itself works on this display: a plain GTK drop target gets it.
	d := e.startDragSource(src, "--probe", text)
	from := centre(e.titled("dnd-source"))
	e.drag(from, centre(e.titled("dnd-probe")))
	if got := d.expect("probe-received", 15*time.Second); !strings.Contains(got, "notes.txt") {
		t.Fatalf("probe got %q", got)
	}
	d.expect("drag-end", 10*time.Second)
	d.stop() // one dnd-source at a time: a drag from an old one is heard by nobody

	app := e.geometry(id)
	for _, f := range []string{text, page, link} {
		d := e.startDragSource(src, f)
		from := centre(e.titled("dnd-source"))
		// On the transcript area, where a person drops files.
		e.drag(from, image.Pt(app.Min.X+app.Dx()*2/3, app.Min.Y+app.Dy()/2))
		d.expect("drag-", 15*time.Second) // drag-end or drag-failed: the drop is over
		d.stop()
		// Give a navigation, had one started, time to paint and to run.
		time.Sleep(2 * time.Second)
		img := e.screenshot()
		kind := filepath.Ext(f)[1:]
		if f == link {
			kind = "link"
		}
		shot := saveShot(crop(img, e.geometry(id)), "window-after-drop-"+kind+".png")
		if err := rendered(img, e.geometry(id)); err != nil {
			t.Fatalf("after dropping %s the window no longer shows the app: %v (%s)", filepath.Base(f), err, shot)
		}
		if m := magenta(img, e.geometry(id)); m > 0.2 {
			t.Fatalf("after dropping %s %.0f%% of the window is the dropped page (%s)", filepath.Base(f), m*100, shot)
		}
		if n := hits.Load(); n != 0 {
			t.Fatalf("the dropped page's script ran (%d requests)", n)
		}
		if id2, ok := e.window(windowTitle); !ok || id2 != id || e.mapState(id) != "IsViewable" {
			t.Fatalf("the app window is gone after the drop")
		}
	}
	// Beside the page's guard, the webview itself refuses to leave the app
	// (app/webview_linux.c).
	if !strings.Contains(e.log(), "navigation guard on") {
		t.Fatalf("the window's navigation guard is not installed")
	}
}

// magenta is the share of the window painted the dropped page's colour.
func magenta(img image.Image, r image.Rectangle) float64 {
	r = r.Intersect(img.Bounds())
	n, m := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y += 4 {
		for x := r.Min.X; x < r.Max.X; x += 4 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			n++
			if cr>>8 > 0xf0 && cg>>8 < 0x20 && cb>>8 > 0xf0 {
				m++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(m) / float64(n)
}
