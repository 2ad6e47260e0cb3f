// Package sessionbus finds and dials the desktop's D-Bus session bus, and
// never starts one. godbus' SessionBus runs `dbus-launch` when no address is
// set (a headless machine, serve over SSH, a test), and the daemon it starts
// outlives the program: every core or serve started there would leave one
// behind, each holding inotify instances until the user's limit is gone.
// Without a bus, the tray and notifications do without (docs/ARCHITECTURE.md
// §Tray and notifications).
package sessionbus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/godbus/dbus/v5"
)

// ErrNoBus: no session bus address is set and no user bus socket exists.
var ErrNoBus = errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set and there is no user bus)")

// Address is $DBUS_SESSION_BUS_ADDRESS, else the systemd user bus socket
// $XDG_RUNTIME_DIR/bus when it exists, else ErrNoBus.
func Address() (string, error) {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a, nil
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		p := filepath.Join(d, "bus")
		if st, err := os.Stat(p); err == nil && st.Mode()&os.ModeSocket != 0 {
			return "unix:path=" + p, nil
		}
	}
	return "", ErrNoBus
}

// Connect opens a private, authenticated connection to the bus at address
// ("": Address()).
func Connect(address string) (*dbus.Conn, error) {
	if address == "" {
		a, err := Address()
		if err != nil {
			return nil, err
		}
		address = a
	}
	conn, err := dbus.Dial(address)
	if err != nil {
		return nil, fmt.Errorf("session bus: %w", err)
	}
	if err = conn.Auth(nil); err == nil {
		err = conn.Hello()
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("session bus: %w", err)
	}
	return conn, nil
}
