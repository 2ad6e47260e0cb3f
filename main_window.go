//go:build desktop || dev || bindings

// Command hermesdesk-window is the Hermes Desk window: the Wails app, the
// only program that maps GTK and WebKit. The core (main.go, built without
// the desktop tag as hermesdesk) starts it when someone wants to see the
// window, and it exits a while after it is hidden. See
// docs/ARCHITECTURE.md §Processes.
package main

import (
	"embed"
	"io/fs"
	"os"

	"github.com/hermesdesk/hermesdesk/app"
)

//go:embed all:frontend/dist
var frontendDist embed.FS

//go:embed build/icons/hermesdesk-256.png
var appIcon []byte

func main() {
	dist, err := fs.Sub(frontendDist, "frontend/dist")
	if err != nil {
		panic(err) // the embed pattern above guarantees dir exists
	}
	os.Exit(app.Main(os.Args[1:], app.Assets{Frontend: dist, Icon: appIcon}))
}
