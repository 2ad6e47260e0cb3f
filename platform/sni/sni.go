// Package sni tells whether a StatusNotifierItem host (a tray) exists on the
// session bus, and when that changes. Without one (GNOME without the
// AppIndicator extension, a bare window manager) a tray icon would be
// invisible, so the app must not hide its window into nothing.
package sni

import (
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/sessionbus"
	"sync"

	"github.com/godbus/dbus/v5"
)

// WatcherName is the well-known name a tray host owns.
const WatcherName = "org.kde.StatusNotifierWatcher"

// Detector watches for the tray host on its own private bus connection, so
// it never disturbs the connections of Wails or the tray library.
type Detector struct {
	conn *dbus.Conn
	sig  chan *dbus.Signal

	mu       sync.Mutex
	present  bool
	onChange func(bool)
	done     chan struct{}
}

// NewDetector connects to the session bus. onChange (may be nil) is called
// from a goroutine of the detector whenever a host appears or goes away.
func NewDetector(onChange func(present bool)) (*Detector, error) {
	// Never autolaunch a bus (backend/sessionbus): without one there is
	// no tray, and the core says so.
	conn, err := sessionbus.Connect("")
	if err != nil {
		return nil, fmt.Errorf("sni: %w", err)
	}
	return newDetector(conn, onChange)
}

func newDetector(conn *dbus.Conn, onChange func(bool)) (*Detector, error) {
	d := &Detector{conn: conn, sig: make(chan *dbus.Signal, 8), onChange: onChange, done: make(chan struct{})}
	// Subscribe before asking, so a host that appears in between is seen.
	if err := conn.AddMatchSignal(
		dbus.WithMatchSender("org.freedesktop.DBus"),
		dbus.WithMatchInterface("org.freedesktop.DBus"),
		dbus.WithMatchMember("NameOwnerChanged"),
		dbus.WithMatchArg(0, WatcherName),
	); err != nil {
		conn.Close()
		return nil, fmt.Errorf("sni: watch: %w", err)
	}
	conn.Signal(d.sig)
	present, err := HasOwner(conn)
	if err != nil {
		conn.Close()
		return nil, err
	}
	d.present = present
	go d.loop()
	return d, nil
}

// HasOwner asks the bus whether a tray host exists right now.
func HasOwner(conn *dbus.Conn) (bool, error) {
	var has bool
	err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, WatcherName).Store(&has)
	if err != nil {
		return false, fmt.Errorf("sni: NameHasOwner: %w", err)
	}
	return has, nil
}

func (d *Detector) loop() {
	defer close(d.done)
	for s := range d.sig {
		if s == nil || len(s.Body) < 3 {
			continue
		}
		name, _ := s.Body[0].(string)
		owner, _ := s.Body[2].(string)
		if name != WatcherName {
			continue
		}
		d.mu.Lock()
		changed := d.present != (owner != "")
		d.present = owner != ""
		fn := d.onChange
		d.mu.Unlock()
		if changed && fn != nil {
			fn(owner != "")
		}
	}
}

// Present reports whether a tray host is there now.
func (d *Detector) Present() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.present
}

// Close stops watching.
func (d *Detector) Close() error {
	d.conn.RemoveSignal(d.sig)
	close(d.sig)
	<-d.done
	return d.conn.Close()
}
