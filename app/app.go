// Package app is the desktop shell: the Wails window and its lifecycle, the
// object bound to the frontend, the tray helper it keeps alive, and start at
// login. Everything that needs no GUI lives in subpackages (autostart,
// applog, trayproto, traysup, sni) so it is tested without a display.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	goruntime "runtime"
	"slices"
	"sync"
	"syscall"

	"github.com/hermesdesk/hermesdesk/app/applog"
	"github.com/hermesdesk/hermesdesk/app/autostart"
	"github.com/hermesdesk/hermesdesk/app/sni"
	"github.com/hermesdesk/hermesdesk/app/traysup"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/version"
)

// Assets are the files main.go embeds.
type Assets struct {
	Frontend fs.FS  // frontend/dist
	Icon     []byte // window icon, PNG
	TrayIcon []byte // tray icon, PNG
}

// App is one run of the desktop app. Nothing touches the disk, the bus or
// other processes before wails.Run calls startup: `wails build` runs this
// binary with the bindings tag just to list the bound methods.
type App struct {
	assets     Assets
	background bool
	shell      *shell
	desktop    *Desktop

	mu       sync.Mutex
	ctx      context.Context
	dataDir  string
	fatal    error
	logFile  io.Closer
	sup      *traysup.Supervisor
	detector *sni.Detector
	exe      string

	backend    *backend
	backendErr error
	backendUp  chan struct{} // closed once the backend opened or failed
	quitting   bool          // shutdown has begun

	signals chan os.Signal
	started chan struct{} // closed when startup returns
	domOnce sync.Once
}

// New prepares the app for the command line args (without the program name).
func New(args []string, assets Assets) *App {
	a := &App{assets: assets, background: slices.Contains(args, autostart.BackgroundFlag), started: make(chan struct{}), backendUp: make(chan struct{})}
	a.shell = &shell{logger: slog.New(slog.NewTextHandler(os.Stderr, nil)), ui: a.wailsUI()}
	a.desktop = &Desktop{shell: a.shell, dataDir: a.getDataDir, api: a.api}
	return a
}

// Main runs the app and returns the process exit code.
func Main(args []string, assets Assets) int {
	a := New(args, assets)
	if err := a.run(); err != nil {
		fmt.Fprintln(os.Stderr, "hermesdesk:", err)
		return 1
	}
	if a.getFatal() != nil {
		return 1
	}
	return 0
}

func (a *App) getDataDir() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.dataDir
}

func (a *App) context() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// startup runs once the window system is up; on Linux concurrently with the
// window being created.
func (a *App) startup(ctx context.Context) {
	defer close(a.started)
	a.mu.Lock()
	a.ctx = ctx
	a.mu.Unlock()

	dir, err := openDataDir()
	if err != nil {
		a.fail(err)
		return
	}
	log, closer, err := applog.New(dir+string(os.PathSeparator)+"logs", slog.LevelInfo, nil)
	if err != nil {
		a.fail(err)
		return
	}
	a.mu.Lock()
	a.dataDir, a.logFile = dir, closer
	a.mu.Unlock()
	a.shell.configure(log, nil)
	log.Info("starting", "version", version.String(), "data_dir", dir, "background", a.background, "pid", os.Getpid())
	go a.openBackend(ctx, dir, log)

	exe, err := autostart.ProgramPath(os.Getenv, os.Executable)
	if err != nil {
		log.Error("cannot locate own binary: no tray, no start at login", "err", err)
		return
	}
	a.exe = exe
	m, err := autostart.New(autostart.Entry{ID: "hermesdesk", Name: AppName,
		Comment: "Start Hermes Desk hidden in the tray", Exec: exe, Args: []string{autostart.BackgroundFlag}})
	if err != nil {
		log.Info("start at login unavailable", "err", err)
	} else {
		a.shell.configure(nil, m)
	}
	a.startTray(log)
	a.quitOnSignal()
}

// openBackend opens the journal and becomes the supervisor of the data dir's
// runs. A failure (a corrupt or too-new database) is shown once; the window
// stays up and says the same wherever it needs the backend.
func (a *App) openBackend(ctx context.Context, dir string, log *slog.Logger) {
	ring := func(runID string, seq int64) {
		a.shell.ui.Emit("run:doorbell", map[string]any{"run_id": runID, "seq": seq})
	}
	b, err := openBackend(ctx, dir, log, ring, a.shell.setRunning)
	a.mu.Lock()
	quitting := a.quitting
	a.backend, a.backendErr = b, err
	if quitting {
		a.backend = nil // shutdown has run already: nobody else will close it
	}
	a.mu.Unlock()
	if quitting && b != nil {
		if err := b.Close(); err != nil {
			log.Warn("closing the backend", "err", err)
		}
	}
	close(a.backendUp)
	if err != nil {
		log.Error("cannot open the journal", "err", err)
		a.errorDialog("Hermes Desk cannot open its journal",
			fmt.Sprintf("%v\n\nYour runs are safe on disk. Hermes Desk keeps a backup before every upgrade in its data folder (%s).", err, dir))
	}
}

// api returns the backend once it is open, waiting up to ctx for it.
func (a *App) api(ctx context.Context) (*backend, error) {
	select {
	case <-a.backendUp:
	case <-a.started:
		// startup finished; if it failed before opening the backend, a.fatal says why.
		if err := a.getFatal(); err != nil {
			return nil, err
		}
		select {
		case <-a.backendUp:
		case <-ctx.Done():
			return nil, nil
		}
	case <-ctx.Done():
		return nil, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.backend, a.backendErr
}

// quitOnSignal makes SIGTERM/SIGINT (logout, kill, Ctrl+C) a real quit. Wails
// turns them into a window close, which beforeClose would only hide.
func (a *App) quitOnSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	a.mu.Lock()
	a.signals = ch
	a.mu.Unlock()
	go func() {
		if s, ok := <-ch; ok {
			a.shell.log().Info("quitting on signal", "signal", s.String())
			a.shell.quit()
		}
	}()
}

// domReady runs on every page load. The first one, after startup has
// finished, makes a --background start without a tray reachable: nothing
// could bring a hidden window back, so it maps minimised instead. (Earlier
// than this, Wails' own StartHidden handling would hide it again.)
func (a *App) domReady(context.Context) {
	a.domOnce.Do(func() {
		go func() {
			<-a.started
			if a.background && !a.shell.isTrayAvailable() && a.getFatal() == nil {
				a.shell.log().Info("started with --background but there is no tray host: showing the window minimised")
				a.shell.ui.Minimise() // iconify first, so it maps minimised
				a.shell.ui.Show()
			}
		}()
	})
}

func (a *App) getFatal() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.fatal
}

// openDataDir resolves and checks the data dir.
func openDataDir() (string, error) {
	dir, err := paths.DataDir()
	if err != nil {
		return "", err
	}
	if err := paths.Ensure(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// fail shows why the app cannot run and quits with status 1. One dialog, one
// exit: a login entry or a launcher does not turn it into a crash loop.
func (a *App) fail(err error) {
	a.mu.Lock()
	a.fatal = err
	a.mu.Unlock()
	a.shell.log().Error("cannot start", "err", err)
	msg := fmt.Sprintf("Hermes Desk cannot use its data folder.\n\n%v\n\n"+
		"Check that the folder exists and that you can write to it, or start Hermes Desk with "+
		"%s set to a folder you own.", err, paths.EnvHome)
	a.errorDialog("Hermes Desk cannot start", msg)
	a.shell.quit()
}

// startTray starts the tray helper where a tray host exists, and watches for
// one to appear later on Linux.
func (a *App) startTray(log *slog.Logger) {
	switch goruntime.GOOS {
	case "darwin", "windows": // the tray always exists there
		a.shell.setTrayAvailable(true)
		a.ensureTray(log)
		return
	}
	det, err := sni.NewDetector(func(present bool) {
		a.shell.setTrayAvailable(present)
		log.Info("tray host changed", "present", present)
		if present {
			a.ensureTray(log)
		}
	})
	if err != nil {
		log.Warn("no session bus: no tray; closing the window will minimise it", "err", err)
		return
	}
	a.mu.Lock()
	a.detector = det
	a.mu.Unlock()
	if det.Present() {
		a.shell.setTrayAvailable(true)
		a.ensureTray(log)
		return
	}
	log.Info("no tray host (org.kde.StatusNotifierWatcher has no owner on the session bus; on GNOME install the " +
		"AppIndicator extension): closing the window will minimise it instead of hiding it")
}

// ensureTray starts the helper once; the supervisor restarts it if it dies.
func (a *App) ensureTray(log *slog.Logger) {
	a.mu.Lock()
	if a.sup != nil || a.ctx == nil {
		a.mu.Unlock()
		return
	}
	exe := a.exe
	trayLog := log.With("component", "tray")
	a.sup = traysup.Start(traysup.Config{
		Command: func() *exec.Cmd {
			cmd := exec.Command(exe, "tray")
			cmd.Stderr = logWriter{trayLog}
			return cmd
		},
		OnMessage: a.shell.onTray,
		Log:       trayLog,
	})
	sup := a.sup
	a.mu.Unlock()
	a.shell.attachTray(sup)
}

// shutdown runs after the window system has stopped.
func (a *App) shutdown(context.Context) {
	a.mu.Lock()
	a.quitting = true
	sup, det, lf, sig, be := a.sup, a.detector, a.logFile, a.signals, a.backend
	a.sup, a.detector, a.logFile, a.signals, a.backend = nil, nil, nil, nil, nil
	a.mu.Unlock()
	if be != nil {
		if err := be.Close(); err != nil {
			a.shell.log().Warn("closing the backend", "err", err)
		}
	}
	if sig != nil {
		signal.Stop(sig)
		close(sig)
	}
	if sup != nil {
		sup.Stop()
	}
	if det != nil {
		_ = det.Close()
	}
	a.shell.log().Info("stopped")
	if lf != nil {
		_ = lf.Close()
	}
}

// logWriter turns a child's stderr into log records.
type logWriter struct{ log *slog.Logger }

func (w logWriter) Write(p []byte) (int, error) {
	for _, line := range splitLines(p) {
		w.log.Info(line)
	}
	return len(p), nil
}

func splitLines(p []byte) []string {
	var out []string
	start := 0
	for i, c := range p {
		if c == '\n' {
			if i > start {
				out = append(out, string(p[start:i]))
			}
			start = i + 1
		}
	}
	if start < len(p) {
		out = append(out, string(p[start:]))
	}
	return out
}

var errNoWindow = errors.New("the window is not ready")
