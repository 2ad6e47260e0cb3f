// Package core is the resident core: the one small process per data dir
// that outlives the window. It is the data dir's supervisor (journal,
// shims, adoption, queue) and serves its local API, owns the tray icon and
// menu in-process, keeps the login entry, and starts the window process
// (`hermesdesk-window`, the only process that maps GTK and WebKit) when
// someone wants to see it. It links no GUI toolkit: a day in the tray
// costs what this process costs. See docs/ARCHITECTURE.md §Processes.
package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/apihost"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
	"github.com/hermesdesk/hermesdesk/backend/version"
	"github.com/hermesdesk/hermesdesk/core/coreapi"
	"github.com/hermesdesk/hermesdesk/core/tray"
	"github.com/hermesdesk/hermesdesk/platform/applog"
	"github.com/hermesdesk/hermesdesk/platform/autostart"
	"github.com/hermesdesk/hermesdesk/platform/sni"
)

// Files of the core in the data dir's runtime dir.
const (
	LockName = "core.lock" // held for the core's whole life
	LogName  = applog.FileName
)

// Environment overrides, mostly for tests.
const (
	// EnvWindowBin is the window program (default: hermesdesk-window next
	// to this executable).
	EnvWindowBin = "HERMESDESK_WINDOW_BIN"
	// EnvWindowGrace is how long a hidden window process lives (a Go
	// duration, e.g. "2s"); it overrides the window_grace_minutes setting.
	EnvWindowGrace = "HERMESDESK_WINDOW_GRACE"
)

// GraceSetting is the settings key for the hidden window's grace period,
// in minutes (default DefaultGrace).
const GraceSetting = "window_grace_minutes"

// DefaultGrace: reopening within this is instant; past it the webview's
// memory goes back to the system.
const DefaultGrace = 5 * time.Minute

// adoptWait is how long a core that took over waits for the old core's
// window to reattach before starting its own.
const adoptWait = 5 * time.Second

// WindowProgram is the window executable's name.
const WindowProgram = "hermesdesk-window"

// SocketPath is the core's socket for dataDir.
func SocketPath(dataDir string) string { return coreapi.SocketPath(dataDir) }

// Icons are the tray's icons by Menu.Icon name; Default is used for an
// unknown name.
type Icons struct {
	ByName  map[string][]byte
	Default []byte
}

// Options configure a core; MenuFunc nil means tray.DefaultMenu.
type Options struct {
	Icons    Icons
	MenuFunc tray.MenuFunc
}

// Main is `hermesdesk [--background] [DIR]`: it makes sure the core runs
// (becoming it if none does, or taking over from an older build) and asks
// it to show the window. It returns the exit code.
func Main(args []string, o Options) int {
	background := slices.Contains(args, autostart.BackgroundFlag)
	rest := slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == autostart.BackgroundFlag })
	dataDir, err := openDataDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hermesdesk:", err)
		// One dialog, one exit: a login entry does not crash-loop.
		showFatal("Hermes Desk cannot start", fmt.Sprintf("Hermes Desk cannot use its data folder.\n\n%v\n\n"+
			"Check that the folder exists and that you can write to it, or start Hermes Desk with "+
			"%s set to a folder you own.", err, paths.EnvHome))
		return 1
	}
	cwd, _ := os.Getwd()
	launch := coreapi.Launch{Args: rest, Cwd: cwd}
	lock, window, code, done := ensureCore(dataDir, launch, background)
	if done {
		return code
	}
	k := &Core{dataDir: dataDir, opts: o, background: background, lock: lock, quitCh: make(chan struct{}), adopt: window,
		backendUp: make(chan struct{})}
	if o.MenuFunc == nil {
		k.opts.MenuFunc = tray.DefaultMenu
	}
	return k.run(launch)
}

// ensureCore talks to the running core: a show (or nothing, for
// --background) when it is the same or a newer build, a handover when this
// build is newer. When no core runs it returns the core lock: this
// process becomes the core (with the old core's window pid after a
// handover: that window reattaches). done says the launch is over with code.
func ensureCore(dataDir string, l coreapi.Launch, background bool) (lock *control.Lock, window, code int, done bool) {
	c := coreapi.NewClient(SocketPath(dataDir))
	deadline := time.Now().Add(20 * time.Second)
	handedOver := false
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		info, err := c.Info(ctx)
		cancel()
		if err == nil && !handedOver && coreapi.Newer(version.Version, info.Version) {
			fmt.Fprintf(os.Stderr, "hermesdesk: taking over from the running Hermes Desk %s (pid %d)\n", info.Version, info.Pid)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			var hr coreapi.HandoverResponse
			hr, err = c.Handover(ctx, version.Version)
			cancel()
			if err == nil {
				handedOver, window = true, hr.WindowPid
				continue // wait for its lock
			}
		}
		if err == nil && !handedOver {
			if background {
				return nil, 0, 0, true // it runs already: a login entry firing twice changes nothing
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err = c.Show(ctx, l)
			cancel()
			if err == nil {
				return nil, 0, 0, true
			}
			fmt.Fprintln(os.Stderr, "hermesdesk: the running Hermes Desk did not answer:", err)
			return nil, 0, 1, true
		}
		lock, err := control.TryLock(filepath.Join(paths.RuntimeDir(dataDir), LockName))
		if err == nil {
			return lock, window, 0, false
		}
		if !errors.Is(err, control.ErrLocked) {
			fmt.Fprintln(os.Stderr, "hermesdesk:", err)
			return nil, 0, 1, true
		}
		// A core is starting (or stepping down): ask again shortly.
		if time.Now().After(deadline) {
			fmt.Fprintln(os.Stderr, "hermesdesk: another Hermes Desk holds this data folder but does not answer; quit it and try again")
			return nil, 0, 1, true
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Core is one run of the resident core.
type Core struct {
	dataDir    string
	opts       Options
	background bool
	lock       *control.Lock
	log        *slog.Logger
	adopt      int // a window left by the core we took over from, expected to reattach

	backend  *apihost.Host
	windows  *windows
	tray     *tray.Tray
	detector *sni.Detector
	am       autostart.Manager // nil where unsupported

	// quotaBusy and quotaAgain: a read of the quota lines for the tray
	// runs, and another was asked for meanwhile (traymodel.go).
	quotaBusy, quotaAgain atomic.Bool

	mu        sync.Mutex
	running   int
	trayModel *traystate.Model // traymodel.go
	view      *traystate.View  // the model's last view, nil before the first
	trayAvail bool
	quitOnce  sync.Once
	quitCh    chan struct{}
	// stopRun, when set, replaces cancelRun (tests: no backend to call).
	stopRun   func(runID string)
	handover  bool
	backendUp chan struct{} // closed once backend is set
}

func (k *Core) run(l coreapi.Launch) int {
	defer k.lock.Unlock()
	log, closer, err := applog.NewNamed(filepath.Join(k.dataDir, "logs"), LogName, slog.LevelInfo, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hermesdesk:", err)
		showFatal("Hermes Desk cannot start", err.Error())
		return 1
	}
	defer closer.Close()
	k.log = log
	log.Info("starting", "version", version.String(), "data_dir", k.dataDir, "background", k.background, "pid", os.Getpid())

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k.windows = newWindows(log.With("component", "window"), version.Version, k.windowCommand, k.hello)
	if k.adopt > 0 {
		k.windows.expect(k.adopt, adoptWait)
	}

	// The tray and the core's socket first, then the window process, then
	// the journal: the window (the slowest to start) starts while the
	// backend opens.
	k.setupAutostart()
	k.startTray()
	ln, err := httpapi.ListenLocal(SocketPath(k.dataDir))
	if err != nil {
		log.Error("cannot open the core's socket", "err", err)
		return 1
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := httpapi.ServeLocal(ctx, ln, k.routes()); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("core socket stopped", "err", err)
		}
	}()
	if !k.background {
		k.windows.show(l)
	}

	// The data dir's supervisor, or a proxy to `hermesdesk serve` that
	// takes over once serve goes away (docs/ARCHITECTURE.md §Processes).
	b, err := apihost.Open(ctx, apihost.Options{DataDir: k.dataDir, Log: log, Watch: k.onWatch,
		OpenSession: func(id string) { k.windows.show(coreapi.Launch{Session: id}) }})
	if err != nil {
		log.Error("cannot open the journal", "err", err)
		k.windows.quit(5 * time.Second)
		if k.tray != nil {
			k.tray.Stop()
		}
		cancel()
		<-served
		showFatal("Hermes Desk cannot open its journal", fmt.Sprintf("%v\n\nYour runs are safe on disk. Hermes Desk keeps a backup before every upgrade in its data folder (%s).", err, k.dataDir))
		return 1
	}
	k.mu.Lock()
	k.backend = b
	k.mu.Unlock()
	close(k.backendUp)
	k.windows.broadcast(k.hello()) // now with the grace setting
	if dir := launchFolder(l); dir != "" && !k.background {
		k.openProject(dir)
	}

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-sigs:
			log.Info("quitting on signal", "signal", s.String())
			k.quit()
		case <-k.quitCh:
		}
	}()
	if k.background && !k.trayAvailable() {
		// Nothing could bring a hidden window back: map it minimised.
		log.Info("started with --background but there is no tray host: showing the window minimised")
		k.windows.show(coreapi.Launch{Minimised: true})
	}

	<-k.quitCh
	signal.Stop(sigs)
	k.mu.Lock()
	handover := k.handover
	k.mu.Unlock()
	if handover {
		// The window stays: it reconnects to the next core.
		k.windows.broadcast(coreapi.Command{Op: coreapi.OpHandover})
		b.HandingOver()
	} else {
		k.windows.quit(5 * time.Second)
	}
	if k.tray != nil {
		k.tray.Stop()
	}
	if err := b.Close(); err != nil {
		log.Warn("closing the backend", "err", err)
	}
	cancel()
	<-served
	if k.detector != nil {
		_ = k.detector.Close()
	}
	log.Info("stopped", "handover", handover)
	return 0
}

func (k *Core) trayAvailable() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.trayAvail
}

// quit ends the core (the app) for real.
func (k *Core) quit() { k.quitOnce.Do(func() { close(k.quitCh) }) }

// stepDown ends the core for a newer build, leaving runs, warm agents and
// the window to it.
func (k *Core) stepDown(to string) {
	k.log.Info("handing over to a newer Hermes Desk", "version", to)
	k.mu.Lock()
	k.handover = true
	k.mu.Unlock()
	k.quit()
}

// showWindow creates the launch's folder as a project (so it exists
// whether or not a window is there to pick it up) and shows the window.
func (k *Core) showWindow(l coreapi.Launch) {
	if dir := launchFolder(l); dir != "" {
		k.openProject(dir)
	}
	k.windows.show(l)
}

// api is the backend's handler once it is open; nil if it does not open
// within ctx.
func (k *Core) api(ctx context.Context) *httpapi.Handler {
	select {
	case <-k.backendUp:
	case <-ctx.Done():
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.backend.Handler()
}

// openProject adds dir as a project unless one exists for it.
func (k *Core) openProject(dir string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := k.api(ctx)
	if h == nil {
		k.log.Warn("the journal is not open; the launched folder is not added", "dir", dir)
		return
	}
	var ps []struct {
		Workspace string `json:"workspace"`
	}
	if st, body := h.DoContext(ctx, "GET", "/api/projects", ""); st == 200 && json.Unmarshal([]byte(body), &ps) == nil {
		for _, p := range ps {
			if p.Workspace == dir {
				return
			}
		}
	}
	body, _ := json.Marshal(map[string]string{"workspace": dir})
	if st, resp := h.DoContext(ctx, "POST", "/api/projects", string(body)); st/100 != 2 {
		k.log.Warn("could not open the launched folder as a project", "dir", dir, "status", st, "answer", resp)
	} else {
		k.log.Info("opened the launched folder as a project", "dir", dir)
	}
}

// launchFolder is the launch's first non-flag argument, made absolute
// against its working directory; "" when none.
func launchFolder(l coreapi.Launch) string {
	for _, a := range l.Args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		if !filepath.IsAbs(a) {
			if l.Cwd == "" {
				return ""
			}
			a = filepath.Join(l.Cwd, a)
		}
		return filepath.Clean(a)
	}
	return ""
}

// windowCommand is a fresh window process for l.
func (k *Core) windowCommand(l coreapi.Launch) *exec.Cmd {
	prog := os.Getenv(EnvWindowBin)
	if prog == "" {
		prog = sibling(WindowProgram)
	}
	lj, _ := json.Marshal(l)
	cmd := exec.Command(prog, "--grace", k.grace().String(), "--launch", string(lj))
	// A file, not a pipe: the window outlives a core that crashes or hands
	// over, and a GTK warning written to a pipe nobody reads would kill it
	// with SIGPIPE.
	if f, err := openWindowOutput(filepath.Join(k.dataDir, "logs", WindowOutput)); err == nil {
		cmd.Stdout, cmd.Stderr = f, f // closed by windows.startLocked once started
	} else {
		k.log.Warn("window output goes nowhere", "err", err)
	}
	return cmd
}

// grace is how long a hidden window lives: the env override, the setting,
// or DefaultGrace.
func (k *Core) grace() time.Duration {
	if v := os.Getenv(EnvWindowGrace); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			return d
		}
		k.log.Warn("ignoring a bad "+EnvWindowGrace, "value", v)
	}
	select {
	case <-k.backendUp:
	default:
		return DefaultGrace // still opening: the window hears the setting in its hello
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var s map[string]json.RawMessage
	if st, body := k.api(ctx).DoContext(ctx, "GET", "/api/settings", ""); st == 200 && json.Unmarshal([]byte(body), &s) == nil {
		var min float64
		if raw, ok := s[GraceSetting]; ok && json.Unmarshal(raw, &min) == nil && min > 0 {
			return time.Duration(min * float64(time.Minute))
		}
	}
	return DefaultGrace
}

// hello is the first command every window gets.
func (k *Core) hello() coreapi.Command {
	on, _ := k.autostartOn()
	grace := k.grace()
	k.mu.Lock()
	defer k.mu.Unlock()
	return coreapi.Command{Op: coreapi.OpHello, TrayAvailable: k.trayAvail, Autostart: on, GraceSeconds: grace.Seconds()}
}

// startTray shows the icon in-process where a tray host may exist, and
// follows the host coming and going on Linux (the window minimises
// instead of hiding while there is none).
func (k *Core) startTray() {
	setAvail := func(v bool) {
		k.mu.Lock()
		k.trayAvail = v
		k.mu.Unlock()
		k.windows.broadcast(coreapi.Command{Op: coreapi.OpTray, TrayAvailable: v})
	}
	switch goruntime.GOOS {
	case "darwin", "windows":
		setAvail(true)
	default:
		det, err := sni.NewDetector(func(present bool) {
			k.log.Info("tray host changed", "present", present)
			setAvail(present)
		})
		if err != nil {
			k.log.Warn("no session bus: no tray; closing the window will minimise it", "err", err)
			return
		}
		k.detector = det
		setAvail(det.Present())
		if !det.Present() {
			k.log.Info("no tray host (org.kde.StatusNotifierWatcher has no owner on the session bus; on GNOME install the " +
				"AppIndicator extension): closing the window will minimise it instead of hiding it")
		}
	}
	k.tray = tray.New(k.opts.Icons.ByName, k.opts.Icons.Default, k.onTray, k.log.With("component", "tray"))
	k.tray.Start()
	k.refreshTray()
	k.log.Info("tray started")
}

// refreshTray renders the menu for the current state.
func (k *Core) refreshTray() {
	if k.tray == nil {
		return
	}
	on, _ := k.autostartOn()
	k.mu.Lock()
	s := tray.State{Running: k.running, Autostart: on, AutostartSupported: k.am != nil}
	v := k.view
	k.mu.Unlock()
	if v != nil {
		k.tray.Set(menuOf(*v, on, s.AutostartSupported))
		return
	}
	k.tray.Set(k.opts.MenuFunc(s))
}

// onTray handles a click in the tray.
func (k *Core) onTray(id string) {
	switch id {
	case tray.IDOpen:
		k.showWindow(coreapi.Launch{})
	case tray.IDAutostart:
		on, _ := k.autostartOn()
		_, _ = k.setAutostart(!on)
	case tray.IDQuit:
		k.log.Info("quit from the tray")
		k.quit()
	default:
		k.onTrayAction(id)
	}
}

// setupAutostart prepares the login entry: it starts this program (the
// core) with --background.
func (k *Core) setupAutostart() {
	exe, err := autostart.ProgramPath(os.Getenv, os.Executable)
	if err != nil {
		k.log.Error("cannot locate own binary: no start at login", "err", err)
		return
	}
	m, err := autostart.New(autostart.Entry{ID: "hermesdesk", Name: tray.Title,
		Comment: "Start Hermes Desk hidden in the tray", Exec: exe, Args: []string{autostart.BackgroundFlag}})
	if err != nil {
		k.log.Info("start at login unavailable", "err", err)
		return
	}
	k.am = m
}

func (k *Core) autostartOn() (bool, error) {
	if k.am == nil {
		return false, nil
	}
	return k.am.Enabled()
}

// setAutostart writes or removes the login entry and returns what is on
// disk afterwards, which the tray and the window then show.
func (k *Core) setAutostart(enabled bool) (bool, error) {
	if k.am == nil {
		return false, autostart.ErrUnsupported
	}
	var err error
	if enabled {
		err = k.am.Enable()
	} else {
		err = k.am.Disable()
	}
	if err != nil {
		k.log.Error("change start at login", "enabled", enabled, "where", k.am.Location(), "err", err)
	} else {
		k.log.Info("start at login changed", "enabled", enabled, "where", k.am.Location())
	}
	on, rerr := k.am.Enabled()
	k.refreshTray()
	k.windows.broadcast(coreapi.Command{Op: coreapi.OpAutostart, Autostart: on})
	if err != nil {
		return on, errors.New("could not change start at login; see the log for details")
	}
	return on, rerr
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

// showFatal has the window program show why Hermes Desk cannot start
// (the core has no toolkit for a dialog) and waits until it is read.
func showFatal(title, msg string) {
	prog := os.Getenv(EnvWindowBin)
	if prog == "" {
		prog = sibling(WindowProgram)
	}
	cmd := exec.Command(prog, "--fatal-title", title, "--fatal", msg)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	_ = cmd.Run()
}

// sibling is the program name beside this executable (with .exe on
// Windows), or the bare name when this one cannot be located.
func sibling(name string) string {
	if goruntime.GOOS == "windows" {
		name += ".exe"
	}
	exe, err := os.Executable()
	if err != nil {
		return name
	}
	return filepath.Join(filepath.Dir(exe), name)
}

// WindowOutput is where the window process's stdout and stderr (GTK and
// WebKit warnings) go, in the data dir's logs/.
const WindowOutput = "window-output.log"

// openWindowOutput opens the window's output file for appending, starting
// it afresh once it passes 1 MiB.
func openWindowOutput(path string) (*os.File, error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if st, err := os.Stat(path); err == nil && st.Size() > 1<<20 {
		flags |= os.O_TRUNC
	}
	return os.OpenFile(path, flags, 0o600)
}
