package app

import (
	"context"
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

// Window geometry: big enough for sidebar + transcript, small enough for a
// 1366×768 laptop; the minimum keeps the sidebar and composer usable.
const (
	width, height       = 1200, 800
	minWidth, minHeight = 720, 480
)

func (a *App) run() error {
	// The saved size, position and theme: the first frame and the page's
	// first paint use the app's theme, not only the desktop's
	// (docs/ARCHITECTURE.md §Window state). startup reports a missing data
	// dir.
	if dir, err := paths.DataDir(); err == nil {
		_ = a.win.load(dir) // a bad file gives defaults; restoreGeometry logs why
	}
	saved := a.win.get()
	w, h := saved.size()
	return wails.Run(&options.App{
		Title:     AppName,
		Width:     w,
		Height:    h,
		MinWidth:  minWidth,
		MinHeight: minHeight,
		// Closing is decided by beforeClose (hide with a tray, minimise
		// without), so Wails' own HideWindowOnClose stays off. There is no
		// single-instance lock: the core keeps one window process.
		HideWindowOnClose: false,
		BackgroundColour:  background(saved.theme()),
		AssetServer:       &assetserver.Options{Assets: withTheme(a.assets.Frontend, saved.Theme)},
		// A dropped file becomes an attachment and never replaces the app.
		// The webview stays a drop target (on Linux, Wails v2 reads the
		// dropped paths from it: with DisableWebViewDrop it gets no drop at
		// all, wailsapp/wails#3563) and hands them to fileDrop; the page
		// cancels every dragover and drop (frontend/src/app/guard.ts), so
		// WebKit never opens the file (docs/ARCHITECTURE.md §Window).
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		OnStartup: func(ctx context.Context) {
			a.startup(ctx)
			guardNavigation(a.shell.log)
			go func() {
				a.restoreGeometry(ctx)
				a.keepGeometry(ctx)
			}()
			runtime.OnFileDrop(ctx, func(_, _ int, paths []string) { a.fileDrop(ctx, paths) })
		},
		OnDomReady:    a.domReady,
		OnBeforeClose: func(context.Context) bool { return a.shell.beforeClose() },
		OnShutdown:    a.shutdown,
		Bind:          []any{a.desk},
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
		// Geometry is saved as the window hides, minimises or quits, and
		// put back as a hidden window shows again
		// (docs/ARCHITECTURE.md §Window state).
		Show: with(func(ctx context.Context) {
			if a.win.reshowing() {
				a.restoreGeometry(ctx)
			}
			runtime.WindowUnminimise(ctx)
			runtime.WindowShow(ctx)
		}),
		Hide: with(func(ctx context.Context) {
			a.rememberGeometry(ctx)
			a.win.setHidden()
			runtime.WindowHide(ctx)
		}),
		Minimise: with(func(ctx context.Context) {
			a.rememberGeometry(ctx)
			runtime.WindowMinimise(ctx)
		}),
		Quit: with(func(ctx context.Context) {
			a.rememberGeometry(ctx)
			runtime.Quit(ctx)
		}),
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
		PickFiles: func(title, folder string) ([]string, error) {
			ctx := a.context()
			if ctx == nil {
				return nil, errNoWindow
			}
			return runtime.OpenMultipleFilesDialog(ctx, runtime.OpenDialogOptions{Title: title, DefaultDirectory: folder})
		},
		SaveFile: func(title, folder, name string) (string, error) {
			ctx := a.context()
			if ctx == nil {
				return "", errNoWindow
			}
			// GTK asks before replacing a file (Wails sets do-overwrite-confirmation).
			return runtime.SaveFileDialog(ctx, runtime.SaveDialogOptions{Title: title, DefaultDirectory: folder,
				DefaultFilename: name, CanCreateDirectories: true})
		},
	}
}

// EventFilesDropped carries the absolute paths of folders (anything not a
// regular file) dropped on the window; the frontend inserts them into the
// composer (relative to the project when inside it).
const EventFilesDropped = "files:dropped"

// EventFilesAttach carries the absolute paths of regular files dropped on
// the window; the composer attaches them (docs/ARCHITECTURE.md §Attachments).
const EventFilesAttach = "files:attach"

func (a *App) fileDrop(ctx context.Context, paths []string) {
	if !dropOffersFiles() {
		a.shell.log().Info("a drop without files on the window: an earlier drag's files are not attached")
		return
	}
	files, other := splitDropped(paths)
	a.shell.log().Info("files dropped on the window", "files", len(files), "other", len(other))
	if len(files) > 0 {
		runtime.EventsEmit(ctx, EventFilesAttach, files)
	}
	if len(other) > 0 {
		runtime.EventsEmit(ctx, EventFilesDropped, other)
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
