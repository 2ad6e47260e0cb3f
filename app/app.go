// Package app is the window process (`hermesdesk-window`): the Wails window
// and the object bound to the frontend. It is a pure client of the
// resident core (package core): API requests go to the core's local API
// socket, doorbells come from it, and the core's command stream shows,
// hides and quits the window. If the core dies, the window waits quietly,
// starts a new one and reconnects. Everything that needs no GUI lives in
// subpackages (autostart, applog, sni) or in core/. See
// docs/ARCHITECTURE.md §Processes.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/version"
	"github.com/hermesdesk/hermesdesk/backend/watchbus"
	"github.com/hermesdesk/hermesdesk/core/coreapi"
	"github.com/hermesdesk/hermesdesk/platform/applog"
)

// Assets are the files main embeds.
type Assets struct {
	Frontend fs.FS  // frontend/dist
	Icon     []byte // window icon, PNG
}

// LogName is the window process's log in the data dir's logs/.
const LogName = "window.log"

// CoreProgram is the core's executable, next to this one.
const CoreProgram = "hermesdesk"

// App is one window process. Nothing touches the disk or other processes
// before wails.Run calls startup.
type App struct {
	assets Assets
	shell  *shell
	desk   *Desktop
	win    winKeeper // window-state.json: geometry and theme
	launch coreapi.Launch
	fatal  [2]string // title, message: show this and exit 1

	mu        sync.Mutex
	ctx       context.Context
	cancel    context.CancelFunc
	dataDir   string
	logFile   io.Closer
	core      *coreapi.Client
	api       *httpapi.Client // the core's local API over api.sock
	connected bool
	reconnect chan struct{} // closed (and replaced) when the core answers again
	lastSpawn time.Time

	domOnce sync.Once
}

// Main runs the window process and returns its exit code.
func Main(args []string, assets Assets) int {
	fset := flag.NewFlagSet("hermesdesk-window", flag.ContinueOnError)
	grace := fset.Duration("grace", 5*time.Minute, "how long a hidden window stays before its process exits")
	launch := fset.String("launch", "", "the launch that asked for the window (JSON)")
	fatal := fset.String("fatal", "", "show this error and exit")
	fatalTitle := fset.String("fatal-title", "Hermes Desk cannot start", "the error's title")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	a := &App{assets: assets, reconnect: make(chan struct{})}
	if *launch != "" {
		if err := json.Unmarshal([]byte(*launch), &a.launch); err != nil {
			fmt.Fprintln(os.Stderr, "hermesdesk-window: bad --launch:", err)
		}
	}
	a.fatal = [2]string{*fatalTitle, *fatal}
	a.shell = &shell{logger: slog.New(slog.NewTextHandler(os.Stderr, nil)), ui: a.wailsUI(), grace: *grace, visible: true}
	a.shell.retire = a.retire
	a.desk = &Desktop{app: a}
	if err := a.run(); err != nil {
		fmt.Fprintln(os.Stderr, "hermesdesk-window:", err)
		return 1
	}
	if a.fatal[1] != "" {
		return 1
	}
	return 0
}

func (a *App) context() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// startup runs once the window system is up.
func (a *App) startup(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	a.mu.Lock()
	a.ctx, a.cancel = ctx, cancel
	a.mu.Unlock()
	if a.fatal[1] != "" {
		go func() {
			a.errorDialog(a.fatal[0], a.fatal[1])
			a.shell.quit()
		}()
		return
	}
	dir, err := paths.DataDir()
	if err != nil {
		a.fatal = [2]string{"Hermes Desk cannot start", err.Error()}
		go func() { a.errorDialog(a.fatal[0], a.fatal[1]); a.shell.quit() }()
		return
	}
	log, closer, err := applog.NewNamed(filepath.Join(dir, "logs"), LogName, slog.LevelInfo, nil)
	if err != nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
		closer = io.NopCloser(nil)
	}
	a.shell.setLogger(log)
	log.Info("window starting", "version", version.String(), "pid", os.Getpid(), "grace", a.shell.grace)
	api := httpapi.NewLocalClient(httpapi.SocketPath(dir))
	a.mu.Lock()
	a.dataDir, a.logFile, a.api = dir, closer, api
	a.core = coreapi.NewClient(coreapi.SocketPath(dir))
	a.mu.Unlock()
	go followBus(ctx, api, a.shell.ui.Emit)
	go a.attachLoop(ctx)
	a.quitOnSignal(ctx)
}

// attachLoop keeps the window attached to the core. When the core goes
// away (a crash, kill -9) the window says it is reconnecting, starts a new
// core (unless the old one said a newer build is taking over) and attaches
// to whichever core answers first.
func (a *App) attachLoop(ctx context.Context) {
	for ctx.Err() == nil {
		err := a.core.Attach(ctx, os.Getpid(), version.Version, a.shell.isVisible(), func(c coreapi.Command) {
			if c.Op == coreapi.OpHello {
				a.setConnected(true)
			}
			a.shell.onCommand(c)
		})
		if ctx.Err() != nil {
			return
		}
		a.setConnected(false)
		a.shell.log().Info("the core went away; reconnecting", "err", err)
		a.waitForCore(ctx)
	}
}

// waitForCore polls the core's socket until it answers, starting a core
// if none comes.
func (a *App) waitForCore(ctx context.Context) {
	start := time.Now()
	delay := 50 * time.Millisecond
	for ctx.Err() == nil {
		c, cancel := context.WithTimeout(ctx, time.Second)
		_, err := a.core.Info(c)
		cancel()
		if err == nil {
			return
		}
		// A handover's new core is on its way; otherwise start one after a
		// moment (a launch may be starting one right now).
		wait := 300 * time.Millisecond
		if a.shell.handingOver() {
			wait = 10 * time.Second
		}
		if time.Since(start) > wait {
			a.spawnCore()
		}
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
		delay = min(2*delay, 500*time.Millisecond)
	}
}

// spawnCore starts `hermesdesk --background` (at most every few seconds);
// a core that finds another one running just exits.
func (a *App) spawnCore() {
	a.mu.Lock()
	if time.Since(a.lastSpawn) < 5*time.Second {
		a.mu.Unlock()
		return
	}
	a.lastSpawn = time.Now()
	a.mu.Unlock()
	prog := CoreProgram
	if runtime.GOOS == "windows" {
		prog += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		prog = filepath.Join(filepath.Dir(exe), prog)
	}
	cmd := exec.Command(prog, "--background")
	if err := cmd.Start(); err != nil {
		a.shell.log().Error("cannot start the core", "program", prog, "err", err)
		return
	}
	a.shell.log().Info("started a new core", "pid", cmd.Process.Pid)
	go func() { _ = cmd.Wait() }() // it outlives us if we go first; reap it if it goes first
}

// setConnected records whether the core answers and tells the frontend.
func (a *App) setConnected(v bool) {
	a.mu.Lock()
	changed := a.connected != v
	a.connected = v
	if v && changed {
		close(a.reconnect)
		a.reconnect = make(chan struct{})
	}
	a.mu.Unlock()
	if changed {
		a.shell.ui.Emit(EventConnection, v)
	}
}

// awaitCore waits (bounded by ctx) until the core answers again; false if
// it did not.
func (a *App) awaitCore(ctx context.Context) bool {
	a.mu.Lock()
	if a.connected {
		a.mu.Unlock()
		return true
	}
	ch := a.reconnect
	a.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		return false
	}
}

// coreClient is the core's client, nil before startup found the data dir.
func (a *App) coreClient() *coreapi.Client {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.core
}

// retire asks the core whether this hidden window may exit.
func (a *App) retire(seq int64) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := a.coreClient().Retire(ctx, coreapi.RetireRequest{Pid: os.Getpid(), Seq: seq})
	return !errors.Is(err, coreapi.ErrRefused) // a core that is gone cannot show us either
}

// quitOnSignal makes SIGTERM/SIGINT end this window process. Wails turns
// them into a window close, which beforeClose would only hide.
func (a *App) quitOnSignal(ctx context.Context) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer signal.Stop(ch)
		select {
		case s := <-ch:
			a.shell.log().Info("window quitting on signal", "signal", s.String())
			a.shell.quit()
		case <-ctx.Done():
		}
	}()
}

// domReady runs on every page load. The first one applies the launch
// that started this window: minimised (a --background start without a
// tray), or a folder to open.
func (a *App) domReady(context.Context) {
	a.domOnce.Do(func() {
		a.shell.log().Info("window page loaded")
		if a.launch.Minimised {
			a.shell.log().Info("started with --background but there is no tray host: showing the window minimised")
			a.shell.ui.Minimise() // mapped already: iconify it
		}
		if len(a.launch.Args) > 0 {
			l := a.launch
			// The frontend subscribes as it mounts, just after the DOM is ready.
			time.AfterFunc(time.Second, func() {
				a.shell.ui.Emit(EventSecondInstance, SecondInstance{Args: l.Args, Cwd: l.Cwd})
			})
		}
	})
}

// shutdown runs after the window system has stopped.
func (a *App) shutdown(context.Context) {
	a.mu.Lock()
	cancel, lf := a.cancel, a.logFile
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	a.shell.log().Info("window stopped")
	if lf != nil {
		_ = lf.Close()
	}
}

var errNoWindow = errors.New("the window is not ready")

// followBus holds the window process's one stream of the core's watch bus
// (GET /api/watch?doorbells=1 over api.sock), following it again after a
// goodbye, until ctx ends (docs/ARCHITECTURE.md §Life of one event). Its
// doorbells, coalesced once by the core per watcher, become tiny
// `run:doorbell` events (large payloads never cross the webview bridge);
// every other message is a small `watch` event. The window reads the
// snapshot itself through Request and drops what it already covers.
func followBus(ctx context.Context, api *httpapi.Client, emit func(name string, data any)) {
	withDoorbells := func(ctx context.Context) (<-chan run.WatchMessage, error) { return api.Watch(ctx, true) }
	watchbus.Follow(ctx, watchbus.SourceFunc(withDoorbells), func(m run.WatchMessage) {
		if m.Type != run.WatchDoorbell {
			emit("watch", m)
			return
		}
		if m.Run != nil {
			emit("run:doorbell", map[string]any{"run_id": m.Run.RunID, "seq": m.Run.LastSeq})
		}
	}, watchbus.Options{})
}
