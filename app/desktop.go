package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/version"
	"github.com/hermesdesk/hermesdesk/core/coreapi"
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
// Its method set is a contract with the frontend; add methods, never
// change these.
type Desktop struct {
	app *App
}

// Info describes this build and this machine.
func (d *Desktop) Info() AppInfo {
	a := d.app
	a.mu.Lock()
	dir, core := a.dataDir, a.core
	a.mu.Unlock()
	info := AppInfo{Name: AppName, Version: version.Version, Commit: version.Commit, DataDir: dir,
		Platform: runtime.GOOS + "/" + runtime.GOARCH, TrayAvailable: a.shell.isTrayAvailable()}
	if core != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if ci, err := core.Info(ctx); err == nil {
			info.AutostartSupported = ci.AutostartSupported
		}
	}
	return info
}

// GetAutostart reports whether the login entry exists on disk (as the core
// last said).
func (d *Desktop) GetAutostart() (bool, error) { return d.app.shell.getAutostart(), nil }

// SetAutostart asks the core to write or remove the login entry and
// returns what is on disk afterwards.
func (d *Desktop) SetAutostart(enabled bool) (bool, error) {
	core := d.app.coreClient()
	if core == nil {
		return false, errNoWindow
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return core.SetAutostart(ctx, enabled)
}

// SetTheme records the app theme ("system", "light" or "dark") the
// frontend now paints, so the next window opens in it without a flash of
// another colour (docs/ARCHITECTURE.md §Window state).
func (d *Desktop) SetTheme(theme string) error { return d.app.setTheme(theme) }

// PickFolder opens the native folder chooser; "" when cancelled.
func (d *Desktop) PickFolder(title string) (string, error) { return d.app.shell.ui.PickFolder(title) }

// PickFiles opens the native chooser for files to attach to a message;
// empty when cancelled. The paths go to the agent as they are
// (docs/ARCHITECTURE.md §Attachments).
func (d *Desktop) PickFiles(title string) ([]string, error) { return d.PickFilesIn(title, "") }

// PickFilesIn is PickFiles opening in folder, the session's project (GTK's
// chooser otherwise opens at "Recent"); a folder that is gone is left out.
func (d *Desktop) PickFilesIn(title, folder string) ([]string, error) {
	if d.app.shell.ui.PickFiles == nil {
		return nil, errNoWindow
	}
	if st, err := os.Stat(folder); folder != "" && (err != nil || !st.IsDir()) {
		folder = ""
	}
	return d.app.shell.ui.PickFiles(title, folder)
}

// Quit ends the app: the core, its tray and this window (the window's
// close button only hides it). runs is what happens to the active runs,
// as the person chose in Settings ("keep" or "stop"; "" keeps them), the
// same question the tray's Quit asks
// (docs/ARCHITECTURE.md §Quit with active runs).
func (d *Desktop) Quit(runs string) {
	core := d.app.coreClient()
	if core == nil {
		d.app.shell.quit()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := core.Quit(ctx, coreapi.QuitRuns(runs)); err != nil {
		d.app.shell.quit() // no core to ask: at least this window goes
	}
}

// requestWait bounds how long a request waits for the core to (re)start.
const requestWait = 15 * time.Second

// Response is what Desktop.Request returns to the frontend.
type Response struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// Request serves one API call (docs/ARCHITECTURE.md §API) with a plain
// HTTP client over the core's api.sock: the core's handler, JSON pages
// instead of SSE, its answer passed on as it is. Live updates arrive as
// tiny "run:doorbell" events ({run_id, seq}) after which the frontend pulls
// the next page through here. While the core is away (restarting), a
// request waits for it rather than failing; a socket of another user is
// said at once.
func (d *Desktop) Request(method, path, body string) Response {
	a := d.app
	a.mu.Lock()
	api := a.api
	a.mu.Unlock()
	if api == nil {
		return unavailable(nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestWait)
	defer cancel()
	for {
		status, answer, err := api.Exchange(ctx, method, path, body)
		switch {
		case err == nil:
			return Response{Status: status, Body: answer}
		case errors.Is(err, httpapi.ErrForeignServer):
			a.shell.log().Warn("the local API socket is another user's", "err", err)
			return Response{Status: http.StatusBadGateway, Body: errorBody(&service.Error{Code: service.CodeUnavailable, Message: err.Error()})}
		case ctx.Err() != nil:
			return Response{Status: http.StatusBadGateway, Body: errorBody(&service.Error{Code: service.CodeUnavailable, Message: "Hermes Desk is not answering; is it still running?"})}
		}
		// No answer: wait for the core to come back, then retry.
		if !a.awaitCore(ctx) {
			return unavailable(fmt.Errorf("Hermes Desk is restarting; try again in a moment"))
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// unavailable answers when there is no core to ask.
func unavailable(err error) Response {
	msg := "Hermes Desk is still starting"
	if err != nil {
		msg = err.Error()
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]string{"code": string(service.CodeUnavailable), "message": msg}})
	return Response{Status: 503, Body: string(body)}
}
