//go:build desktoptest

package desktop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The window's saved state (docs/ARCHITECTURE.md §Window state): where it
// was, and the app theme its first frame paints.

const stateFile = "window-state.json"

type savedState struct {
	Theme     string `json:"theme,omitempty"`
	X         int    `json:"x"`
	Y         int    `json:"y"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Maximised bool   `json:"maximised,omitempty"`
}

func (e *env) readState() (savedState, error) {
	var s savedState
	b, err := os.ReadFile(filepath.Join(e.dataDir, stateFile))
	if err != nil {
		return s, err
	}
	return s, json.Unmarshal(b, &s)
}

func (e *env) writeState(s savedState) {
	e.t.Helper()
	os.MkdirAll(e.dataDir, 0o700)
	b, _ := json.Marshal(s)
	if err := os.WriteFile(filepath.Join(e.dataDir, stateFile), b, 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// quitAll quits from the tray and waits for the core and window to end.
func (e *env) quitAll(a *app) {
	e.t.Helper()
	win := e.windowProc()
	e.click(e.waitItem(), labelQuit)
	if code := a.wait(30 * time.Second); code != 0 {
		e.t.Fatalf("exit code %d after tray Quit", code)
	}
	e.waitFor("the window process to exit", 15*time.Second, func() bool { return win == 0 || processGone(win) })
}

// waitGeometry waits until the window's client rectangle is want (the
// window manager applies a move asynchronously).
func (e *env) waitGeometry(id string, want image.Rectangle, what string) {
	e.t.Helper()
	var got image.Rectangle
	deadline := time.Now().Add(10 * time.Second)
	for {
		got = e.geometry(id)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: window at %v, want %v (screenshot %s)", what, got, want, saveShot(e.screenshot(), "winstate-fail.png"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestWindowRemembersGeometry: a window moved and resized comes back to
// the same place when reshown, and after a cold start; a position on a
// monitor that is gone opens on the screen instead.
func TestWindowRemembersGeometry(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()
	id := e.waitWindow("IsViewable")
	e.waitRendered(id, "winstate-first.png")
	first := e.geometry(id)

	// Somewhere no placement policy would choose: top-left, smaller.
	e.must("xdotool", "windowsize", id, "900", "620")
	e.must("xdotool", "windowmove", id, "40", "30")
	e.waitFor("the window to move", 10*time.Second, func() bool {
		g := e.geometry(id)
		return g.Dx() == 900 && g.Dy() == 620 && g.Min != first.Min
	})
	moved := e.geometry(id)
	t.Logf("opened at %v, moved to %v", first, moved)
	// Saved while shown, too (a killed window keeps it): GTK's move and
	// resize events, saved once the window is still for a moment.
	movedAt := time.Now()
	e.waitFor("the moved window's place to be saved", 15*time.Second, func() bool {
		s, err := e.readState()
		return err == nil && s.Width == 900 && s.Height == 620
	})
	t.Logf("saved %v after the move ended", time.Since(movedAt).Round(10*time.Millisecond))

	// Closing hides it and saves where it is.
	e.closeWindow(id)
	e.waitWindow("IsUnMapped")
	s, err := e.readState()
	if err != nil {
		t.Fatalf("no saved state after closing: %v", err)
	}
	if s.Width != 900 || s.Height != 620 {
		t.Fatalf("saved %+v, want a 900×620 window", s)
	}
	if st, _ := os.Stat(filepath.Join(e.dataDir, stateFile)); st.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", stateFile, st.Mode().Perm())
	}

	// Reshown (warm): the same place.
	e.click(e.waitItem(), labelOpen)
	id = e.waitWindow("IsViewable")
	e.waitGeometry(id, moved, "reshown")

	// Cold: quit everything, start again.
	e.quitAll(a)
	a = e.startApp()
	id = e.waitWindow("IsViewable")
	e.waitGeometry(id, moved, "after a cold start")
	e.waitPaintedShot(id, "winstate-restored.png")

	// Maximised when quit: maximised again, and un-maximising returns it
	// to where it was before.
	e.must("wmctrl", "-i", "-r", id, "-b", "add,maximized_vert,maximized_horz")
	e.waitFor("the window to maximise", 10*time.Second, func() bool { return e.maximised(id) })
	e.quitAll(a)
	if s, err := e.readState(); err != nil || !s.Maximised || s.Width != 900 {
		t.Fatalf("saved %+v (%v) after quitting maximised, want maximised with the 900×620 rectangle kept", s, err)
	}
	a = e.startApp()
	id = e.waitWindow("IsViewable")
	e.waitFor("the window to open maximised", 10*time.Second, func() bool { return e.maximised(id) })
	e.must("wmctrl", "-i", "-r", id, "-b", "remove,maximized_vert,maximized_horz")
	e.waitGeometry(id, moved, "un-maximised")
	e.quitAll(a)

	// The monitor it was on is gone: the saved position is far right of
	// this 1400×900 screen, and the size larger than it.
	s, _ = e.readState()
	e.writeState(savedState{Theme: s.Theme, X: 3000, Y: 200, Width: 2000, Height: 1200})
	a = e.startApp()
	id = e.waitWindow("IsViewable")
	screen := image.Rect(0, 0, 1400, 900)
	var last image.Rectangle
	e.waitFor("the window to be placed on the screen", 10*time.Second, func() bool {
		g := e.geometry(id)
		if g != last {
			t.Logf("window at %v", g)
			last = g
		}
		return g.In(screen) && g.Dx() >= 720 && g.Dy() >= 480 && g.Min.X < 1400-300
	})
	e.waitPaintedShot(id, "winstate-gone-monitor.png")
	t.Logf("saved at 3000,200 2000×1200 → opened at %v", e.geometry(id))
	if !strings.Contains(e.log(), "off every monitor") {
		t.Error("the window did not log that its saved position was off-screen")
	}

	// A damaged file: the window opens anyway, with the defaults.
	e.quitAll(a)
	os.WriteFile(filepath.Join(e.dataDir, stateFile), []byte("{not json"), 0o600)
	a = e.startApp()
	id = e.waitWindow("IsViewable")
	e.waitRendered(id, "winstate-damaged.png")
	if g := e.geometry(id); g.Dx() != 1200 || g.Dy() != 800 {
		t.Errorf("with a damaged state file the window is %v, want the default 1200×800", g)
	}
}

// waitPaintedShot waits until the window shows a painted page (text and
// icons: many colours; rendered's sidebar check needs the default width)
// and keeps a screenshot.
func (e *env) waitPaintedShot(id, name string) {
	e.t.Helper()
	e.waitFor("the page to paint", 30*time.Second, func() bool {
		img := e.screenshot()
		r := e.geometry(id)
		if colours(img, r) < 12 {
			return false
		}
		e.t.Logf("screenshot: %s", saveShot(img, name))
		return true
	})
}

func colours(img image.Image, r image.Rectangle) int {
	r = r.Intersect(img.Bounds())
	seen := map[[3]uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			seen[[3]uint32{cr >> 11, cg >> 11, cb >> 11}] = true
		}
	}
	return len(seen)
}

func (e *env) clickAt(x, y int) {
	e.t.Helper()
	e.must("xdotool", "mousemove", fmt.Sprint(x), fmt.Sprint(y), "click", "1")
}

// maximised reports the window manager's maximised state of the window.
func (e *env) maximised(id string) bool {
	out, _ := e.output("xprop", "-id", id, "_NET_WM_STATE")
	return strings.Contains(out, "_NET_WM_STATE_MAXIMIZED_VERT") && strings.Contains(out, "_NET_WM_STATE_MAXIMIZED_HORZ")
}

// grabWindow captures the screen area r.
func (e *env) grabWindow(r image.Rectangle) (image.Image, error) {
	cmd := exec.Command("import", "-window", "root", "-crop", fmt.Sprintf("%dx%d+%d+%d", r.Dx(), r.Dy(), r.Min.X, r.Min.Y), "png:-")
	cmd.Env = e.environ
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	return png.Decode(bytes.NewReader(out))
}

// whiteShare is the share of near-white pixels in img.
func whiteShare(img image.Image) float64 {
	b := img.Bounds()
	white, n := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 235 && g>>8 > 235 && bl>>8 > 235 {
				white++
			}
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(white) / float64(n)
}

// firstFrames starts the app and grabs the window's area from the moment
// it maps until the UI has rendered; it returns each frame's white share.
func (e *env) firstFrames(name string) []float64 {
	e.t.Helper()
	a := e.startApp()
	var id string
	e.waitFor("the window to map", 30*time.Second, func() bool {
		var ok bool
		id, ok = e.window(windowTitle)
		return ok && e.mapState(id) == "IsViewable"
	})
	var shares []float64
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; ; i++ {
		r := e.geometry(id)
		img, err := e.grabWindow(r)
		if err == nil {
			shares = append(shares, whiteShare(img))
			if i < 3 {
				saveShot(img, fmt.Sprintf("%s-frame%d.png", name, i))
			}
			full := e.screenshot()
			if colours(full, r) >= 12 { // text and icons: the page has painted
				e.t.Logf("%s: rendered after %d frames: %s", name, len(shares), saveShot(crop(full, r), name+"-rendered.png"))
				shares = append(shares, whiteShare(crop(full, r)))
				break
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: the window never rendered", name)
		}
	}
	e.quitAll(a)
	return shares
}

// TestDarkThemeFirstFrame: with the app theme dark on a light desktop, no
// frame of a starting window is white — the window's background and the
// page's first paint are dark before the frontend's script runs. The light
// theme on the same desktop is the control: its frames are white.
func TestDarkThemeFirstFrame(t *testing.T) {
	e := newEnv(t, true) // no GTK_THEME, no gsettings: the desktop is light

	// Choose Dark in Settings → Theme, as a person does: the window saves it.
	a := e.startApp()
	id := e.waitWindow("IsViewable")
	e.waitRendered(id, "theme-choose.png")
	g := e.geometry(id)
	if g.Dx() != 1200 || g.Dy() != 800 {
		t.Fatalf("the window is %v; the clicks below assume the default 1200×800", g)
	}
	e.clickAt(g.Min.X+60, g.Max.Y-25) // the sidebar's Settings
	e.waitFor("the Settings dialog", 10*time.Second, func() bool {
		return mean(e.screenshot(), image.Rect(g.Min.X+20, g.Min.Y+20, g.Min.X+200, g.Min.Y+60))[0] < 200 // the page dims behind it
	})
	e.clickAt(g.Min.X+537, g.Min.Y+187) // Theme: Dark
	e.waitFor("the window to save the dark theme", 10*time.Second, func() bool {
		s, err := e.readState()
		return err == nil && s.Theme == "dark"
	})
	e.waitFor("the page to turn dark", 10*time.Second, func() bool {
		return mean(e.screenshot(), image.Rect(g.Min.X+350, g.Min.Y+300, g.Min.X+800, g.Min.Y+600))[0] < 80
	})
	t.Logf("chose Dark: %s", saveShot(crop(e.screenshot(), g), "theme-chosen.png"))
	e.quitAll(a)

	dark := e.firstFrames("theme-dark")
	t.Logf("dark theme: white share per frame %.2f", dark)
	for i, w := range dark {
		if w > 0.15 {
			t.Errorf("dark theme: frame %d of %d is %.0f%% white", i, len(dark), 100*w)
		}
	}

	e.writeState(savedState{Theme: "light"})
	light := e.firstFrames("theme-light")
	t.Logf("light theme: white share per frame %.2f", light)
	if last := light[len(light)-1]; last < 0.3 {
		t.Errorf("light theme (control): the rendered window is only %.0f%% white; the measure cannot tell", 100*last)
	}
}
