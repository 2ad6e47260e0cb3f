package app

import (
	"log/slog"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/core/coreapi"
)

// Events the frontend listens to. Payloads stay tiny: large Wails event
// payloads leak memory in WebKit.
const (
	EventAutostartChanged = "autostart:changed"   // bool
	EventSecondInstance   = "app:second-instance" // SecondInstance
	EventOpenSession      = "app:open-session"    // {"session_id": id}; "" opens the new-session view
	EventConnection       = "core:connection"     // bool: the core answers
)

// SecondInstance is the payload of EventSecondInstance.
type SecondInstance struct {
	Args []string `json:"args"`
	Cwd  string   `json:"cwd"`
}

// ui is what the shell needs from the window system; wails.go binds it to the
// Wails runtime, tests to fakes.
type ui struct {
	Show       func()
	Hide       func()
	Minimise   func()
	Quit       func()
	Emit       func(name string, data any)
	PickFolder func(title string) (string, error)
	// PickFiles opens in folder when it is one ("" or gone: the chooser's own default).
	PickFiles func(title, folder string) ([]string, error)
	// SaveFile asks where to save, opening in folder with name; "" when cancelled.
	SaveFile func(title, folder, name string) (string, error)
}

// shell is the window process's behaviour between the window and the
// core, free of Wails so it is unit-tested with fakes: closing hides (or
// minimises without a tray), a hidden window retires after its grace
// period if the core agrees, and the core's commands show it, quit it or
// update what it shows (docs/ARCHITECTURE.md §Processes).
type shell struct {
	ui ui
	// retire asks the core whether this window may exit, telling it the
	// last command acted on; true: exit.
	retire func(seq int64) bool
	// afterFunc is time.AfterFunc (tests call graceUp themselves).
	afterFunc func(time.Duration, func()) *time.Timer

	mu            sync.Mutex
	logger        *slog.Logger
	grace         time.Duration
	trayAvailable bool
	autostart     bool
	visible       bool
	quitting      bool
	handover      bool
	toldMinimise  bool
	seq           int64 // the last command from the core acted on
	timer         *time.Timer
}

func (s *shell) log() *slog.Logger {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logger
}

func (s *shell) setLogger(l *slog.Logger) {
	s.mu.Lock()
	s.logger = l
	s.mu.Unlock()
}

// beforeClose decides what closing the window does; true keeps the process
// running. With a tray the window hides into it (and its process retires
// after the grace period); without one it minimises, so the app stays
// reachable from the taskbar instead of vanishing.
func (s *shell) beforeClose() (prevent bool) {
	s.mu.Lock()
	quitting, tray, told := s.quitting, s.trayAvailable, s.toldMinimise
	if !tray {
		s.toldMinimise = true
	}
	s.mu.Unlock()
	switch {
	case quitting:
		return false
	case tray:
		s.hide()
	default:
		if !told {
			s.log().Info("no tray host on this desktop (org.kde.StatusNotifierWatcher has no owner on the session bus): " +
				"closing the window minimises it instead of hiding it; use the tray menu's Quit or the About dialog to quit")
		}
		s.ui.Minimise()
	}
	return true
}

// hide hides the window and starts the grace period.
func (s *shell) hide() {
	s.ui.Hide()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.visible = false
	if s.timer != nil {
		s.timer.Stop()
	}
	after := s.afterFunc
	if after == nil {
		after = time.AfterFunc
	}
	s.timer = after(s.grace, s.graceUp)
	s.logger.Info("window hidden", "grace", s.grace)
}

// graceUp: the window stayed hidden for the whole grace period. It exits if
// the core agrees (no show on its way).
func (s *shell) graceUp() {
	s.mu.Lock()
	if s.visible || s.quitting {
		s.mu.Unlock()
		return
	}
	seq := s.seq
	s.mu.Unlock()
	if !s.retire(seq) {
		s.log().Info("a show is on its way; staying")
		return
	}
	s.log().Info("hidden past the grace period; exiting")
	s.quit()
}

// show maps the window and cancels the grace period.
func (s *shell) show() {
	s.mu.Lock()
	s.visible = true
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.mu.Unlock()
	s.ui.Show()
}

func (s *shell) isVisible() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.visible
}

// quit ends this window process.
func (s *shell) quit() {
	s.mu.Lock()
	s.quitting = true
	s.mu.Unlock()
	s.ui.Quit()
}

func (s *shell) isTrayAvailable() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.trayAvailable
}

func (s *shell) getAutostart() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.autostart
}

func (s *shell) handingOver() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handover
}

// onCommand acts on one command from the core.
func (s *shell) onCommand(c coreapi.Command) {
	switch c.Op {
	case coreapi.OpHello:
		s.mu.Lock()
		s.trayAvailable, s.autostart, s.handover = c.TrayAvailable, c.Autostart, false
		if c.GraceSeconds > 0 {
			s.grace = time.Duration(c.GraceSeconds * float64(time.Second))
		}
		if c.TrayAvailable {
			s.toldMinimise = false
		}
		s.mu.Unlock()
		s.ui.Emit(EventAutostartChanged, c.Autostart)
	case coreapi.OpShow:
		s.show()
		if c.Launch != nil && len(c.Launch.Args) > 0 {
			s.ui.Emit(EventSecondInstance, SecondInstance{Args: c.Launch.Args, Cwd: c.Launch.Cwd})
		}
		if c.Launch != nil && (c.Launch.Session != "" || c.Launch.NewSession) {
			// The tray's run item, New session… or a notification's click.
			s.ui.Emit(EventOpenSession, map[string]string{"session_id": c.Launch.Session})
		}
	case coreapi.OpTray:
		s.mu.Lock()
		s.trayAvailable = c.TrayAvailable
		if c.TrayAvailable {
			s.toldMinimise = false
		}
		s.mu.Unlock()
	case coreapi.OpAutostart:
		s.mu.Lock()
		s.autostart = c.Autostart
		s.mu.Unlock()
		s.ui.Emit(EventAutostartChanged, c.Autostart)
	case coreapi.OpHandover:
		s.mu.Lock()
		s.handover = true
		s.mu.Unlock()
	case coreapi.OpQuit:
		s.log().Info("the core asked the window to quit")
		s.quit()
	}
	s.mu.Lock()
	if c.Seq > s.seq || c.Op == coreapi.OpHello { // a new core numbers from 1
		s.seq = c.Seq
	}
	s.mu.Unlock()
}
