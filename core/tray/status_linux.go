//go:build linux

package tray

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

// The StatusNotifierItem's Status ("Active", "NeedsAttention"): hosts
// draw an item that needs attention differently (a highlight, a blink,
// lifted out of an overflow). fyne.io/systray v1.12.2 exports Status as
// a constant "Active" and offers no setter, so this reaches its
// properties object through the library's unexported instance
// (docs/ARCHITECTURE.md §Tray). The mirror below is checked against the
// library's own state before every use (the title the tray set must read
// back, field and D-Bus property alike); a mismatch — a library upgrade
// that changed the struct — disables the status, never guesses. go.mod
// pins the version; TestTrayNeedsAttention fails when this stops working.

// systrayMirror is fyne.io/systray v1.12.2's tray (systray_unix.go), field
// for field.
type systrayMirror struct {
	conn                *dbus.Conn
	iconData            []byte
	title, tooltipTitle string
	lock                sync.Mutex
	menu                unsafe.Pointer // *menuLayout
	menuLock            sync.RWMutex
	props, menuProps    *prop.Properties
	menuVersion         uint32
}

//go:linkname systrayInstance fyne.io/systray.instance
var systrayInstance *systrayMirror

const (
	sniIface = "org.kde.StatusNotifierItem"
	sniPath  = dbus.ObjectPath("/StatusNotifierItem")
)

var errStatusUnavailable = errors.New("tray: this build of the tray library does not let the status be set")

// setStatus sets the item's Status and tells the host (NewStatus).
func setStatus(needsAttention bool) (err error) {
	in := systrayInstance
	if in == nil {
		return errStatusUnavailable
	}
	in.lock.Lock()
	conn, props, title := in.conn, in.props, in.title
	in.lock.Unlock()
	if conn == nil || props == nil {
		return errors.New("tray: the icon is not registered yet")
	}
	if title != Title {
		return errStatusUnavailable // the layout is not the one mirrored
	}
	if v, derr := props.Get(sniIface, "Title"); derr != nil || v.Value() != Title {
		return errStatusUnavailable
	}
	status := "Active"
	if needsAttention {
		status = "NeedsAttention"
	}
	defer func() {
		if r := recover(); r != nil { // SetMust panics when the bus is gone
			err = fmt.Errorf("tray: set status: %v", r)
		}
	}()
	props.SetMust(sniIface, "Status", status) // also emits PropertiesChanged
	if err := conn.Emit(sniPath, sniIface+".NewStatus", status); err != nil {
		return fmt.Errorf("tray: announce status: %w", err)
	}
	return nil
}
