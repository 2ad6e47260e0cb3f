package app

import (
	"errors"
	"log/slog"
	"slices"
	"sync"

	"github.com/hermesdesk/hermesdesk/app/autostart"
	"github.com/hermesdesk/hermesdesk/app/trayproto"
)

// Events the frontend listens to. Payloads stay tiny: large Wails event
// payloads leak memory in WebKit.
const (
	EventAutostartChanged = "autostart:changed"   // bool
	EventSecondInstance   = "app:second-instance" // SecondInstance
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
}

// trayLink is the running tray helper (traysup.Supervisor in the app).
type trayLink interface {
	Send(trayproto.Msg)
}

// shell is the app's behaviour between the window, the tray and the OS,
// free of Wails so it is unit-tested with fakes.
type shell struct {
	ui ui

	mu            sync.Mutex
	logger        *slog.Logger
	autostartMgr  autostart.Manager // nil where unsupported
	tray          trayLink          // nil until a helper runs
	trayAvailable bool
	quitting      bool
	running       int
	toldMinimise  bool
}

// log and am are set by startup while the window may already call in.
func (s *shell) log() *slog.Logger {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logger
}

func (s *shell) am() autostart.Manager {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.autostartMgr
}

func (s *shell) configure(log *slog.Logger, m autostart.Manager) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if log != nil {
		s.logger = log
	}
	s.autostartMgr = m
}

// errAutostartUnsupported is what the frontend sees on an OS without a backend.
var errAutostartUnsupported = errors.New("start at login is not supported on this system")

// beforeClose decides what closing the window does; true keeps the app
// running. With a tray the window hides into it; without one it minimises,
// so the app stays reachable from the taskbar instead of vanishing.
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
		s.ui.Hide()
	default:
		if !told {
			s.log().Info("no tray host on this desktop (org.kde.StatusNotifierWatcher has no owner on the session bus): " +
				"closing the window minimises it instead of hiding it; use the tray menu's Quit or the About dialog to quit")
		}
		s.ui.Minimise()
	}
	return true
}

// quit ends the app for real.
func (s *shell) quit() {
	s.mu.Lock()
	s.quitting = true
	s.mu.Unlock()
	s.ui.Quit()
}

func (s *shell) show() {
	s.ui.Show()
}

// setTrayAvailable records whether a tray host exists now.
func (s *shell) setTrayAvailable(v bool) {
	s.mu.Lock()
	s.trayAvailable = v
	if v {
		s.toldMinimise = false
	}
	s.mu.Unlock()
}

func (s *shell) isTrayAvailable() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.trayAvailable
}

// attachTray connects a tray helper and sends it the current state.
func (s *shell) attachTray(t trayLink) {
	s.mu.Lock()
	s.tray = t
	s.mu.Unlock()
	s.pushState()
}

// pushState tells the tray what is on disk and what is running.
func (s *shell) pushState() {
	on, err := s.getAutostart()
	if err != nil && !errors.Is(err, errAutostartUnsupported) {
		s.log().Warn("read start-at-login entry", "err", err)
	}
	s.mu.Lock()
	t, running := s.tray, s.running
	s.mu.Unlock()
	if t != nil {
		t.Send(trayproto.Msg{Op: trayproto.OpState, Autostart: on, Running: running})
	}
}

// setRunning updates the tray's count of active runs.
func (s *shell) setRunning(n int) {
	s.mu.Lock()
	s.running = n
	s.mu.Unlock()
	s.pushState()
}

func (s *shell) getAutostart() (bool, error) {
	if s.am() == nil {
		return false, errAutostartUnsupported
	}
	return s.am().Enabled()
}

// setAutostart writes or removes the login entry and returns what is on disk
// afterwards, which is what every checkbox shows.
func (s *shell) setAutostart(enabled bool) (bool, error) {
	if s.am() == nil {
		return false, errAutostartUnsupported
	}
	var err error
	if enabled {
		err = s.am().Enable()
	} else {
		err = s.am().Disable()
	}
	if err != nil {
		s.log().Error("change start at login", "enabled", enabled, "where", s.am().Location(), "err", err)
	} else {
		s.log().Info("start at login changed", "enabled", enabled, "where", s.am().Location())
	}
	on, rerr := s.am().Enabled()
	s.pushState()
	if err != nil {
		return on, errors.New("could not change start at login; see the log for details")
	}
	return on, rerr
}

// onTray handles one message from the tray helper.
func (s *shell) onTray(m trayproto.Msg) {
	switch m.Op {
	case trayproto.OpOpen:
		s.show()
	case trayproto.OpAutostart:
		on, err := s.setAutostart(m.Enabled)
		if err == nil || !errors.Is(err, errAutostartUnsupported) {
			s.ui.Emit(EventAutostartChanged, on)
		}
	case trayproto.OpQuit:
		s.log().Info("quit from the tray")
		s.quit()
	}
}

// secondInstance handles a second launch: it reshows this window and passes
// any arguments on. A second `--background` start (a login entry firing while
// the app already runs) changes nothing.
func (s *shell) secondInstance(args []string, cwd string) {
	s.log().Info("second instance", "args", args, "cwd", cwd)
	background := slices.Contains(args, autostart.BackgroundFlag)
	rest := slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == autostart.BackgroundFlag })
	if background && len(rest) == 0 {
		return
	}
	s.show()
	if len(rest) > 0 {
		s.ui.Emit(EventSecondInstance, SecondInstance{Args: rest, Cwd: cwd})
	}
}
