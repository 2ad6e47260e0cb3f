// Package icons embeds the rendered tray icons (tray-*.svg, rendered by
// render.sh), one per tray state, so the tray shows the state at 16–24 px.
package icons

import _ "embed"

var (
	//go:embed tray-idle.png
	trayIdle []byte
	//go:embed tray-running.png
	trayRunning []byte
	//go:embed tray-needs-you.png
	trayNeedsYou []byte
)

// TrayByName is every tray icon by its state name, for the tray renderer.
func TrayByName() map[string][]byte {
	return map[string][]byte{"idle": trayIdle, "running": trayRunning, "needs-you": trayNeedsYou}
}
