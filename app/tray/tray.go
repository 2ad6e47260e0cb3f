// Package tray is the tray helper process (`hermesdesk tray`). It shows the
// icon and menu with fyne.io/systray and speaks trayproto with the app over
// stdin/stdout. It runs in its own process because racing a second GUI loop
// inside the Wails process is flaky on Linux and impossible on macOS.
package tray

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	"fyne.io/systray"

	"github.com/hermesdesk/hermesdesk/app/trayproto"
)

// Menu labels; the desktop test clicks them by label.
const (
	LabelOpen      = "Open Hermes Desk"
	LabelAutostart = "Start at login"
	LabelQuit      = "Quit"
	title          = "Hermes Desk"
)

// Run is the helper's main: it returns when stdin closes (the app is gone)
// or after Quit was sent.
func Run(icon []byte, in io.Reader, out io.Writer, log *slog.Logger) int {
	h := &helper{w: trayproto.NewWriter(out), log: log, icon: icon}
	systray.Run(func() { h.ready(in) }, func() {})
	return 0
}

type helper struct {
	w    *trayproto.Writer
	log  *slog.Logger
	icon []byte

	mu        sync.Mutex
	autostart *systray.MenuItem
}

func (h *helper) send(m trayproto.Msg) {
	if err := h.w.Write(m); err != nil {
		// The app is gone; nothing to tell. stdin EOF ends us shortly.
		h.log.Debug("tray: write", "err", err)
	}
}

func (h *helper) ready(in io.Reader) {
	systray.SetIcon(h.icon)
	systray.SetTitle(title)
	systray.SetTooltip(title)
	// Left click opens the window where the host sends Activate.
	systray.SetOnTapped(func() { h.send(trayproto.Msg{Op: trayproto.OpOpen}) })

	open := systray.AddMenuItem(LabelOpen, "Show the Hermes Desk window")
	auto := systray.AddMenuItemCheckbox(LabelAutostart, "Start Hermes Desk hidden when you log in", false)
	systray.AddSeparator()
	quit := systray.AddMenuItem(LabelQuit, "Quit Hermes Desk")
	h.mu.Lock()
	h.autostart = auto
	h.mu.Unlock()

	go func() {
		for {
			select {
			case <-open.ClickedCh:
				h.send(trayproto.Msg{Op: trayproto.OpOpen})
			case <-auto.ClickedCh:
				// Ask for the opposite of what is shown; the app writes the
				// file and answers with the state on disk, which we then show.
				h.mu.Lock()
				want := !auto.Checked()
				h.mu.Unlock()
				h.send(trayproto.Msg{Op: trayproto.OpAutostart, Enabled: want})
			case <-quit.ClickedCh:
				h.send(trayproto.Msg{Op: trayproto.OpQuit})
			}
		}
	}()
	go func() {
		err := trayproto.Read(in, h.apply, func(line []byte, err error) {
			h.log.Warn("tray: bad line from app", "line", string(line), "err", err)
		})
		h.log.Debug("tray: app closed the pipe; exiting", "err", err)
		systray.Quit()
	}()
}

// apply shows the state the app sent.
func (h *helper) apply(m trayproto.Msg) {
	if m.Op != trayproto.OpState {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if m.Autostart {
		h.autostart.Check()
	} else {
		h.autostart.Uncheck()
	}
	tip := title
	if m.Running > 0 {
		tip = fmt.Sprintf("%s — %d running", title, m.Running)
	}
	systray.SetTooltip(tip)
}

// Main is the `hermesdesk tray` entry point.
func Main(icon []byte) int {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	return Run(icon, os.Stdin, os.Stdout, log)
}
