package app

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
)

// WindowStateName is the window's own small file in the data dir: where the
// window was and which theme the app paints, so the next window process
// opens in the same place without a flash of the wrong colour
// (docs/ARCHITECTURE.md §Window state). Only the window process writes it.
const WindowStateName = "window-state.json"

// Themes the frontend's Appearance setting offers (frontend/src/app/theme.ts).
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// winState is what window-state.json holds. X, Y are the frame's top-left
// on the whole screen (the X root window), Width and Height the client
// area; they describe the window unmaximised, so un-maximising a restored
// window returns it to where it was.
type winState struct {
	Theme string `json:"theme,omitempty"` // "" until the frontend said

	X         int  `json:"x"`
	Y         int  `json:"y"`
	Width     int  `json:"width"`
	Height    int  `json:"height"`
	Maximised bool `json:"maximised,omitempty"`
}

// hasGeometry: a size was saved (a zero state is "never saved").
func (s winState) hasGeometry() bool { return s.Width > 0 && s.Height > 0 }

// theme is the saved theme, "system" for anything unknown.
func (s winState) theme() string {
	switch s.Theme {
	case ThemeLight, ThemeDark:
		return s.Theme
	}
	return ThemeSystem
}

// maxSide bounds a saved size: anything larger is a corrupt file, not a
// screen.
const maxSide = 1 << 14

// loadWinState reads dir's window state. A missing, unreadable or corrupt
// file, or one with impossible numbers, gives the defaults (the error says
// why, for the log): the window must open whatever the file holds.
func loadWinState(dir string) (winState, error) {
	b, err := os.ReadFile(filepath.Join(dir, WindowStateName))
	if err != nil {
		if os.IsNotExist(err) {
			return winState{}, nil
		}
		return winState{}, fmt.Errorf("reading the window state: %w", err)
	}
	var s winState
	if err := json.Unmarshal(b, &s); err != nil {
		return winState{}, fmt.Errorf("the window state file is damaged (using defaults): %w", err)
	}
	if s.Theme != "" && s.theme() == ThemeSystem {
		s.Theme = ThemeSystem // unknown: follow the desktop
	}
	if s.Width < 0 || s.Height < 0 || s.Width > maxSide || s.Height > maxSide ||
		s.X < -maxSide || s.X > 4*maxSide || s.Y < -maxSide || s.Y > 4*maxSide {
		return winState{Theme: s.Theme}, fmt.Errorf("the window state file has an impossible geometry %d,%d %dx%d (using defaults)", s.X, s.Y, s.Width, s.Height)
	}
	return s, nil
}

// saveWinState writes dir's window state atomically (a temp file renamed
// over the old one), readable only by its owner.
func saveWinState(dir string, s winState) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".window-state-*")
	if err != nil {
		return fmt.Errorf("saving the window state: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op once renamed
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("saving the window state: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("saving the window state: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("saving the window state: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, WindowStateName)); err != nil {
		return fmt.Errorf("saving the window state: %w", err)
	}
	return nil
}

// minVisible is how much of a saved window must overlap a monitor's work
// area for the window to go back there; less means that monitor is gone
// (or the window was pushed off it) and the window is centred instead.
const minVisible = 100

// assumedFrame is the frame of a window not yet framed (the window
// manager has not told its size): generous on purpose, a border on each
// side and a tall title bar, since a guess too small leaves the frame a
// few pixels off the monitor, and one too large only a slightly smaller
// window.
var assumedFrame = image.Pt(16, 48)

// placement is where a window goes: Rect is the frame's top-left and the
// client size on the root window.
type placement struct {
	Rect    image.Rectangle
	Centred bool // no usable saved position: centred on the first work area
}

// place decides where a saved window reopens, given the work areas of the
// monitors now attached (the first is the primary). The window always ends
// up wholly inside one work area, no smaller than min and no larger than
// that area: a position saved on a monitor that is gone, or a size from a
// larger screen, never leaves the window off-screen or past its edges.
// deco is the window manager's frame around the client area (a title bar
// makes the window that much taller than its client size); until the
// window is framed it is not known, and a title bar's worth is assumed.
// ok is false when there is nothing to decide (no saved geometry or no
// monitors): the window keeps the toolkit's own placement.
func place(s winState, areas []image.Rectangle, min, deco image.Point) (p placement, ok bool) {
	if !s.hasGeometry() || len(areas) == 0 {
		return placement{}, false
	}
	saved := image.Rect(s.X, s.Y, s.X+s.Width, s.Y+s.Height)
	best, bestArea := -1, 0
	for i, a := range areas {
		in := saved.Intersect(a)
		if n := in.Dx() * in.Dy(); in.Dx() >= minVisible && in.Dy() >= minVisible && n > bestArea {
			best, bestArea = i, n
		}
	}
	centred := best < 0
	if centred {
		best = 0
	}
	if deco == (image.Point{}) {
		deco = assumedFrame
	}
	a := areas[best]
	// w, h: the client; the frame (x, y its top-left) is deco larger.
	w := clampInt(s.Width, min.X, a.Dx()-deco.X)
	h := clampInt(s.Height, min.Y, a.Dy()-deco.Y)
	fw, fh := w+deco.X, h+deco.Y
	var x, y int
	if centred {
		x, y = a.Min.X+(a.Dx()-fw)/2, a.Min.Y+(a.Dy()-fh)/2
	} else {
		x = clampInt(s.X, a.Min.X, a.Max.X-fw)
		y = clampInt(s.Y, a.Min.Y, a.Max.Y-fh)
	}
	return placement{Rect: image.Rect(x, y, x+w, y+h), Centred: centred}, true
}

// clampInt bounds v to [lo, hi]; when the range is empty (a work area
// smaller than the minimum size) lo wins for a size's floor and a
// position's start.
func clampInt(v, lo, hi int) int {
	if v > hi {
		v = hi
	}
	if v < lo {
		v = lo
	}
	return v
}
