package app

import (
	"context"
	"runtime"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/version"
)

// AppName is the product name shown to people.
const AppName = "Hermes Desk"

// AppInfo is what the About dialog and Settings show.
type AppInfo struct {
	Name               string `json:"name"`
	Version            string `json:"version"`
	Commit             string `json:"commit"`
	DataDir            string `json:"data_dir"`
	Platform           string `json:"platform"`
	TrayAvailable      bool   `json:"tray_available"`
	AutostartSupported bool   `json:"autostart_supported"`
}

// Desktop is the object bound to the frontend: window.go.app.Desktop.<Method>.
// Its method set is a contract with the frontend; add methods (the API's
// Request comes next), never change these.
type Desktop struct {
	shell   *shell
	dataDir func() string
	// api waits (bounded) for the backend to open and returns it, or why
	// it could not.
	api func(ctx context.Context) (*backend, error)
}

// Info describes this build and this machine.
func (d *Desktop) Info() AppInfo {
	return AppInfo{
		Name:               AppName,
		Version:            version.Version,
		Commit:             version.Commit,
		DataDir:            d.dataDir(),
		Platform:           runtime.GOOS + "/" + runtime.GOARCH,
		TrayAvailable:      d.shell.isTrayAvailable(),
		AutostartSupported: d.shell.am() != nil,
	}
}

// GetAutostart reports whether the login entry exists on disk.
func (d *Desktop) GetAutostart() (bool, error) { return d.shell.getAutostart() }

// SetAutostart writes or removes the login entry and returns what is on
// disk afterwards.
func (d *Desktop) SetAutostart(enabled bool) (bool, error) { return d.shell.setAutostart(enabled) }

// PickFolder opens the native folder chooser; "" when cancelled.
func (d *Desktop) PickFolder(title string) (string, error) { return d.shell.ui.PickFolder(title) }

// Quit ends the app (the window's close button only hides it).
func (d *Desktop) Quit() { d.shell.quit() }

// requestWait bounds how long a request made during start-up waits for the
// journal to open and the runs to be re-adopted.
const requestWait = 15 * time.Second

// Request serves one API call (DESIGN.md §7 routes) in-process: the same
// handler as HTTP, with JSON pages instead of SSE. Live updates arrive as
// tiny "run:doorbell" events ({run_id, seq}) after which the frontend pulls
// the next page through here: Wails leaks memory on large event payloads.
func (d *Desktop) Request(method, path, body string) Response {
	ctx, cancel := context.WithTimeout(context.Background(), requestWait)
	defer cancel()
	b, err := d.api(ctx)
	if b == nil {
		return backendUnavailable(err)
	}
	status, resp := b.Handler().DoContext(context.Background(), method, path, body)
	return Response{Status: status, Body: resp}
}
