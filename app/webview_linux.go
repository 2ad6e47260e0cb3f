//go:build linux && desktop

package app

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1

void hdGuardNavigation(void);
int hdDragOffersFiles(void);
*/
import "C"

import (
	"log/slog"
	"net/url"
)

// guardNavigation makes the window's WebKit view refuse every navigation
// away from the app and every new window, independently of the page's own
// guard (frontend/src/app/guard.ts), which a page still loading or a
// broken script cannot give (docs/ARCHITECTURE.md §Window). Wails v2 has
// no option for it; webview_linux.c finds the view and answers its
// decide-policy signal, asking allowNavigation.
func guardNavigation(log func() *slog.Logger) {
	navLog = log
	C.hdGuardNavigation()
}

var navLog func() *slog.Logger

// dropOffersFiles says whether the drag just dropped offered files. Wails
// keeps the paths of the last file drag that crossed the window and hands
// them over on the next drop of any kind (a file dragged over and taken
// away, then some text dropped, would attach that file); a drop whose drag
// offered no text/uri-list is not a file drop.
func dropOffersFiles() bool {
	return C.hdDragOffersFiles() != 0 // -1: no drag seen (no view guarded): trust Wails
}

//export hdAllowNavigation
func hdAllowNavigation(target, current *C.char) C.int {
	t, c := C.GoString(target), C.GoString(current)
	if allowNavigation(t, c) {
		return 1
	}
	if navLog != nil {
		scheme := "?"
		if u, err := url.Parse(t); err == nil {
			scheme = u.Scheme // not the path: it may name a person's file
		}
		navLog().Warn("window: refused to leave the app", "scheme", scheme)
	}
	return 0
}

//export hdNavigationGuarded
func hdNavigationGuarded(views C.int) {
	if navLog == nil {
		return
	}
	if views == 0 {
		navLog().Warn("window: no web view found to guard; the page's own guard stands alone")
		return
	}
	navLog().Info("window: navigation guard on", "views", int(views))
}

//export hdNewWindowRefused
func hdNewWindowRefused() {
	if navLog != nil {
		navLog().Warn("window: refused to open a second window")
	}
}
