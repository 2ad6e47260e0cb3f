package app

import (
	"image"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPlace(t *testing.T) {
	min := image.Pt(minWidth, minHeight)
	frame := image.Pt(2, 24)                      // a border and a title bar
	laptop := image.Rect(0, 0, 1366, 768-32)      // a panel at the bottom
	right := image.Rect(1366, 0, 1366+1920, 1080) // a second monitor on the right
	left := image.Rect(-1920, 0, 0, 1080)         // …or on the left
	small := image.Rect(0, 0, 640, 480)           // smaller than the minimum
	geo := func(x, y, w, h int) winState { return winState{X: x, Y: y, Width: w, Height: h} }
	rect := func(x, y, w, h int) image.Rectangle { return image.Rect(x, y, x+w, y+h) }
	cases := []struct {
		name    string
		saved   winState
		areas   []image.Rectangle
		want    image.Rectangle
		centred bool
		ok      bool
	}{
		{"never saved", winState{}, []image.Rectangle{laptop}, image.Rectangle{}, false, false},
		{"no monitors known", geo(10, 10, 900, 600), nil, image.Rectangle{}, false, false},
		{"fits: kept as is", geo(100, 50, 900, 600), []image.Rectangle{laptop}, rect(100, 50, 900, 600), false, true},
		{"hangs off the right edge: pulled in", geo(1000, 50, 900, 600), []image.Rectangle{laptop}, rect(464, 50, 900, 600), false, true},
		{"above the top: pulled down", geo(100, -40, 900, 600), []image.Rectangle{laptop}, rect(100, 0, 900, 600), false, true},
		{"under the panel: pulled up", geo(100, 400, 900, 600), []image.Rectangle{laptop}, rect(100, 112, 900, 600), false, true},
		{"too big for the screen: shrunk to it", geo(0, 0, 2500, 1400), []image.Rectangle{laptop}, rect(0, 0, 1364, 712), false, true},
		{"smaller than the minimum: grown", geo(100, 100, 200, 100), []image.Rectangle{laptop}, rect(100, 100, minWidth, minHeight), false, true},
		{"on the second monitor: stays there", geo(2000, 100, 1200, 800), []image.Rectangle{laptop, right}, rect(2000, 100, 1200, 800), false, true},
		{"second monitor gone: centred on the first", geo(2000, 100, 1200, 800), []image.Rectangle{laptop}, rect(82, 0, 1200, 712), true, true},
		{"left monitor gone: centred on the first", geo(-1500, 200, 1000, 700), []image.Rectangle{laptop}, rect(182, 6, 1000, 700), true, true},
		{"left monitor present", geo(-1500, 200, 1000, 700), []image.Rectangle{laptop, left}, rect(-1500, 200, 1000, 700), false, true},
		{"a sliver on screen counts as gone", geo(1300, 100, 900, 600), []image.Rectangle{laptop}, rect(232, 56, 900, 600), true, true},
		{"mostly on the second: goes there", geo(1200, 100, 1200, 800), []image.Rectangle{laptop, right}, rect(1366, 100, 1200, 800), false, true},
		{"work area smaller than the minimum: minimum at its corner", geo(50, 50, 900, 600), []image.Rectangle{small}, rect(0, 0, minWidth, minHeight), false, true},
		{"not framed yet: borders and a tall title bar are assumed", geo(100, 400, 900, 600), []image.Rectangle{laptop}, rect(100, 88, 900, 600), false, true},
		{"not framed yet, as large as the monitor: the frame still fits", geo(0, 0, 5000, 5000), []image.Rectangle{laptop}, rect(0, laptop.Min.Y, laptop.Dx()-16, laptop.Dy()-48), false, true},
		{"far away (corrupt numbers): centred", geo(40000, 40000, 900, 600), []image.Rectangle{laptop}, rect(232, 56, 900, 600), true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			deco := frame
			if strings.HasPrefix(c.name, "not framed") {
				deco = image.Point{}
			}
			p, ok := place(c.saved, c.areas, min, deco)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			if p.Rect != c.want || p.Centred != c.centred {
				t.Errorf("place = %v centred=%v, want %v centred=%v", p.Rect, p.Centred, c.want, c.centred)
			}
			// Whatever the input, the framed window lies inside one work
			// area (unless that area is smaller than the minimum size).
			if deco == (image.Point{}) {
				deco = assumedFrame
			}
			framed := image.Rectangle{p.Rect.Min, p.Rect.Max.Add(deco)}
			inside := false
			for _, a := range c.areas {
				if framed.In(a) {
					inside = true
				}
			}
			if !inside && c.areas[0] != small {
				t.Errorf("%v is not inside any work area %v", p.Rect, c.areas)
			}
		})
	}
}

func TestSaveWait(t *testing.T) {
	quiet := 500 * time.Millisecond
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		name string
		now  time.Time
		want time.Duration
	}{
		{"still for exactly the quiet period: save", t0.Add(quiet), 0},
		{"still for longer (the timer fired late): save", t0.Add(3 * time.Second), 0},
		{"moved again since the timer was armed: wait the rest", t0.Add(200 * time.Millisecond), 300 * time.Millisecond},
		{"moved this instant: wait a whole period", t0, quiet},
		{"the clock went back: wait a whole period", t0.Add(-time.Second), quiet},
	} {
		if got := saveWait(t0, c.now, quiet); got != c.want {
			t.Errorf("%s: saveWait = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestWinStateFile(t *testing.T) {
	cases := []struct {
		name    string
		content string // "" = no file
		want    winState
		wantErr bool
	}{
		{"missing: defaults", "", winState{}, false},
		{"saved", `{"theme":"dark","x":10,"y":20,"width":900,"height":600,"maximised":true}`,
			winState{Theme: ThemeDark, X: 10, Y: 20, Width: 900, Height: 600, Maximised: true}, false},
		{"theme only", `{"theme":"light"}`, winState{Theme: ThemeLight}, false},
		{"unknown theme: system", `{"theme":"purple","width":900,"height":600}`, winState{Theme: ThemeSystem, Width: 900, Height: 600}, false},
		{"not JSON", "\x00\x01garbage{", winState{}, true},
		{"truncated", `{"theme":"dark","x":1`, winState{}, true},
		{"wrong types", `{"theme":7,"x":"left"}`, winState{}, true},
		{"negative size: theme kept, geometry dropped", `{"theme":"dark","width":-5,"height":600}`, winState{Theme: ThemeDark}, true},
		{"huge size", `{"width":99999999,"height":600}`, winState{Theme: ThemeSystem}, true},
		{"empty file", ``, winState{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.name != "missing: defaults" {
				if err := os.WriteFile(filepath.Join(dir, WindowStateName), []byte(c.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := loadWinState(dir)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if got.theme() != c.want.theme() || got.X != c.want.X || got.Y != c.want.Y ||
				got.Width != c.want.Width || got.Height != c.want.Height || got.Maximised != c.want.Maximised {
				t.Errorf("loaded %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestSaveWinStateRoundTripAndMode(t *testing.T) {
	dir := t.TempDir()
	want := winState{Theme: ThemeDark, X: -1800, Y: 30, Width: 1000, Height: 700}
	if err := saveWinState(dir, want); err != nil {
		t.Fatal(err)
	}
	// Overwrite: the rename replaces the old file, no temp files stay.
	want.Maximised = true
	if err := saveWinState(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := loadWinState(dir)
	if err != nil || got != want {
		t.Fatalf("loaded %+v, %v; want %+v", got, err, want)
	}
	st, err := os.Stat(filepath.Join(dir, WindowStateName))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the data dir holds %d entries, want only %s", len(entries), WindowStateName)
	}
	if err := saveWinState(filepath.Join(dir, "missing"), want); err == nil {
		t.Error("saving into a missing directory succeeded")
	}
}

func TestSetThemeSavesForTheNextWindow(t *testing.T) {
	dir := t.TempDir()
	saved := winState{X: 5, Y: 6, Width: 900, Height: 700}
	if err := saveWinState(dir, saved); err != nil {
		t.Fatal(err)
	}
	a := &App{shell: &shell{logger: slog.New(slog.NewTextHandler(io.Discard, nil))}}
	_ = a.win.load(dir)
	for _, c := range []struct {
		theme   string
		wantErr bool
		want    string
	}{
		{ThemeDark, false, ThemeDark},
		{"purple", true, ThemeDark}, // refused; the saved theme stays
		{ThemeLight, false, ThemeLight},
		{ThemeSystem, false, ThemeSystem},
	} {
		err := a.setTheme(c.theme)
		if (err != nil) != c.wantErr {
			t.Fatalf("setTheme(%q) = %v, want error %v", c.theme, err, c.wantErr)
		}
		got, err := loadWinState(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got.theme() != c.want || got.Width != 900 || got.X != 5 {
			t.Errorf("after setTheme(%q) the file holds %+v, want theme %s and the geometry kept", c.theme, got, c.want)
		}
	}
}
