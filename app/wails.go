package app

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/mac"
	"github.com/wailsapp/wails/v2/pkg/options/windows"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// instanceID names the single-instance lock (a D-Bus name on Linux). The
// default data dir has the plain name; another HERMESDESK_HOME gets its own
// lock, so a second data dir (a test, a developer's scratch dir) runs its own
// window instead of reshowing the first one's.
func instanceID(getenv func(string) string) string {
	const base = "io.github.hermesdesk"
	home := getenv(paths.EnvHome)
	if home == "" {
		return base
	}
	h := fnv.New32a()
	h.Write([]byte(home))
	return fmt.Sprintf("%s.h%08x", base, h.Sum32())
}

// Window geometry: big enough for sidebar + transcript, small enough for a
// 1366×768 laptop; the minimum keeps the sidebar and composer usable.
const (
	width, height       = 1200, 800
	minWidth, minHeight = 720, 480
)

func (a *App) run() error {
	dark := prefersDark()
	// The frontend's --bg token (frontend/src/styles/tokens.css), so the
	// first frame does not flash another colour.
	bg := &options.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	if dark {
		bg = &options.RGBA{R: 0x17, G: 0x18, B: 0x1b, A: 0xff}
	}
	return wails.Run(&options.App{
		Title:     AppName,
		Width:     width,
		Height:    height,
		MinWidth:  minWidth,
		MinHeight: minHeight,
		// Closing is decided by beforeClose (hide with a tray, minimise
		// without), so Wails' own HideWindowOnClose stays off.
		HideWindowOnClose: false,
		StartHidden:       a.background,
		BackgroundColour:  bg,
		AssetServer:       &assetserver.Options{Assets: a.assets.Frontend},
		OnStartup:         a.startup,
		OnDomReady:        a.domReady,
		OnBeforeClose:     func(context.Context) bool { return a.shell.beforeClose() },
		OnShutdown:        a.shutdown,
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId: instanceID(os.Getenv),
			OnSecondInstanceLaunch: func(d options.SecondInstanceData) {
				a.shell.secondInstance(d.Args, d.WorkingDirectory)
			},
		},
		Bind: []any{a.desktop},
		Linux: &linux.Options{
			Icon:        a.assets.Icon,
			ProgramName: "hermesdesk", // WM_CLASS, matches the .desktop file
		},
		Mac: &mac.Options{
			About: &mac.AboutInfo{Title: AppName, Message: "AI agent workbench", Icon: a.assets.Icon},
		},
		Windows: &windows.Options{Theme: windows.SystemDefault},
	})
}

// wailsUI binds the shell to the Wails runtime. Calls before startup (no
// context yet) do nothing.
func (a *App) wailsUI() ui {
	with := func(f func(ctx context.Context)) func() {
		return func() {
			if ctx := a.context(); ctx != nil {
				f(ctx)
			}
		}
	}
	return ui{
		Show: with(func(ctx context.Context) {
			runtime.WindowUnminimise(ctx)
			runtime.WindowShow(ctx)
		}),
		Hide:     with(runtime.WindowHide),
		Minimise: with(runtime.WindowMinimise),
		Quit:     with(runtime.Quit),
		Emit: func(name string, data any) {
			if ctx := a.context(); ctx != nil {
				runtime.EventsEmit(ctx, name, data)
			}
		},
		PickFolder: func(title string) (string, error) {
			ctx := a.context()
			if ctx == nil {
				return "", errNoWindow
			}
			return runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
		},
	}
}

// errorDialog shows a modal error; it needs the window system, which is up
// when startup runs.
func (a *App) errorDialog(title, msg string) {
	if ctx := a.context(); ctx != nil {
		_, _ = runtime.MessageDialog(ctx, runtime.MessageDialogOptions{Type: runtime.ErrorDialog, Title: title, Message: msg})
	}
}

// prefersDark guesses the desktop's colour scheme so the window's first
// frame matches the theme the frontend will paint (it follows the OS too).
func prefersDark() bool {
	if strings.HasSuffix(os.Getenv("GTK_THEME"), ":dark") {
		return true
	}
	if _, err := exec.LookPath("gsettings"); err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	out, err := exec.CommandContext(ctx, "gsettings", "get", "org.gnome.desktop.interface", "color-scheme").Output()
	return err == nil && strings.Contains(string(out), "dark")
}
