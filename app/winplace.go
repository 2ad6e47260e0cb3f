package app

import (
	"context"
	"fmt"
	"image"
	goruntime "runtime"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// winKeeper holds the window's saved state (window-state.json) for this
// process: read once before the window exists, updated when the window
// hides, minimises or quits and when the frontend's theme changes
// (docs/ARCHITECTURE.md §Window state).
type winKeeper struct {
	mu      sync.Mutex
	dir     string // the data dir; "" when it could not be found (nothing is saved)
	state   winState
	hidden  bool  // hidden by us: the next show puts it back where it was
	loadErr error // why the saved state was not used, logged once the log is open
}

// load reads the saved state of dir; a bad file is logged by the caller
// and the window opens with the defaults.
func (k *winKeeper) load(dir string) error {
	s, err := loadWinState(dir)
	k.mu.Lock()
	k.dir, k.state, k.loadErr = dir, s, err
	k.mu.Unlock()
	return err
}

// setHidden: the window is about to hide.
func (k *winKeeper) setHidden() {
	k.mu.Lock()
	k.hidden = true
	k.mu.Unlock()
}

// reshowing reports (and clears) that the window was hidden by us.
func (k *winKeeper) reshowing() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	was := k.hidden
	k.hidden = false
	return was
}

func (k *winKeeper) get() winState {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.state
}

// update changes the state and writes it if anything changed.
func (k *winKeeper) update(change func(*winState)) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := k.state
	change(&s)
	if s == k.state || k.dir == "" {
		k.state = s
		return nil
	}
	k.state = s
	return saveWinState(k.dir, s)
}

// size is the window's first size: the saved one (bounded; the placement
// fits it to the monitor) or the default.
func (s winState) size() (w, h int) {
	if !s.hasGeometry() {
		return width, height
	}
	return clampInt(s.Width, minWidth, maxSide), clampInt(s.Height, minHeight, maxSide)
}

// background is the window's colour before the page paints: the frontend's
// --bg token (frontend/src/styles/tokens.css) for the app's theme, the
// desktop's preference when the theme follows the system.
func background(theme string) *options.RGBA {
	dark := theme == ThemeDark || theme == ThemeSystem && prefersDark()
	if dark {
		return &options.RGBA{R: 0x17, G: 0x18, B: 0x1b, A: 0xff}
	}
	return &options.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
}

// restoreGeometry puts the window where it was last, fitted to the
// monitors attached now. It runs after Wails has centred the new window.
func (a *App) restoreGeometry(ctx context.Context) {
	s := a.win.get()
	a.win.mu.Lock()
	loadErr := a.win.loadErr
	a.win.mu.Unlock()
	if loadErr != nil {
		a.shell.log().Warn("window state", "err", loadErr)
	}
	// A window still maximised (hidden that way) keeps GTK's own
	// unmaximised rectangle.
	areas, deco := workAreas(AppName)
	if p, ok := place(s, areas, image.Pt(minWidth, minHeight), deco); ok && !runtime.WindowIsMaximised(ctx) {
		placeWindow(AppName, p.Rect)
		if p.Centred {
			a.shell.log().Info("the window's saved position is off every monitor now; centring it", "saved", fmt.Sprintf("%d,%d %dx%d", s.X, s.Y, s.Width, s.Height))
		}
	}
	if s.Maximised {
		runtime.WindowMaximise(ctx)
	}
}

// saveQuiet is how long the window must stay still after a move, resize
// or (un)maximise before its place is saved: a drag sends a stream of
// events and is written once, at its end, and a window that is killed or
// crashes still reopens where it was last put.
const saveQuiet = 500 * time.Millisecond

// saveWait decides, when the save timer fires, how much longer to wait:
// 0 means save now (nothing changed for quiet since the last change, at
// time last); otherwise the timer is armed again for the rest. A
// clock that went backwards waits a whole quiet period rather than
// saving mid-drag or never.
func saveWait(last, now time.Time, quiet time.Duration) time.Duration {
	still := now.Sub(last)
	switch {
	case still < 0:
		return quiet
	case still >= quiet:
		return 0
	}
	return quiet - still
}

// keepGeometry saves the shown window's place saveQuiet after it last
// moved, resized or was (un)maximised, until ctx ends. GTK's own signals
// tell (screen_linux.go); nothing polls. Where there are none
// (watchWindow gives nil) the place is saved as the window hides,
// minimises or quits only. A file write happens only when the place
// changed (winKeeper.update).
func (a *App) keepGeometry(ctx context.Context) {
	changed := watchWindow(AppName)
	if changed == nil {
		if goruntime.GOOS == "linux" {
			a.shell.log().Warn("window: cannot follow its moves; its place is saved when it hides or quits")
		}
		return
	}
	t := time.NewTimer(saveQuiet)
	t.Stop()
	armed := false
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-changed:
			last = time.Now()
			if !armed {
				t.Reset(saveQuiet)
				armed = true
			}
		case now := <-t.C:
			if wait := saveWait(last, now, saveQuiet); wait > 0 {
				t.Reset(wait)
				continue
			}
			armed = false
			if a.shell.isVisible() {
				a.rememberGeometry(ctx)
			}
		}
	}
}

// rememberGeometry saves where the window is. A maximised window keeps
// its saved unmaximised rectangle; a minimised or hidden one has no
// position worth keeping.
func (a *App) rememberGeometry(ctx context.Context) {
	a.win.mu.Lock()
	hidden := a.win.hidden
	a.win.mu.Unlock()
	if hidden || runtime.WindowIsMinimised(ctx) {
		return
	}
	maxed := runtime.WindowIsMaximised(ctx)
	var x, y, w, h int
	if !maxed {
		x, y = runtime.WindowGetPosition(ctx)
		w, h = runtime.WindowGetSize(ctx)
	}
	err := a.win.update(func(s *winState) {
		s.Maximised = maxed
		if !maxed && w > 0 && h > 0 {
			s.X, s.Y, s.Width, s.Height = x, y, w, h
		}
	})
	if err != nil {
		a.shell.log().Warn("cannot save the window's position", "err", err)
	}
}

// setTheme records the app theme the frontend paints, so the next window
// starts in it, and repaints the window's background now.
func (a *App) setTheme(theme string) error {
	switch theme {
	case ThemeSystem, ThemeLight, ThemeDark:
	default:
		return fmt.Errorf("unknown theme %q (want system, light or dark)", theme)
	}
	if ctx := a.context(); ctx != nil {
		c := background(theme)
		runtime.WindowSetBackgroundColour(ctx, c.R, c.G, c.B, c.A)
	}
	if err := a.win.update(func(s *winState) { s.Theme = theme }); err != nil {
		a.shell.log().Warn("cannot save the theme", "err", err)
		return fmt.Errorf("the theme applies now but could not be saved for the next start: %w", err)
	}
	return nil
}
