package app

import "C"

// windowChanged carries the window's moves and resizes from GTK's signal
// handlers (screen_linux.go) to keepGeometry; one pending value is enough,
// the saver only needs to know that something changed since.
var windowChanged = make(chan struct{}, 1)

// hdWindowChanged runs on GTK's main thread for every configure-event and
// window-state-event: it must not block (nor call back into the window
// system, which waits on that thread), so it only notes the change.
//
//export hdWindowChanged
func hdWindowChanged() {
	select {
	case windowChanged <- struct{}{}:
	default:
	}
}
