//go:build desktoptest

package desktop

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/testkit/dbustest"
	"github.com/hermesdesk/hermesdesk/testkit/trayhost"
)

const windowTitle = "Hermes Desk"

// env is one isolated desktop: its own X display with openbox, its own
// session bus, its own HOME and data dir.
type env struct {
	t       testing.TB
	bin     string
	display string
	bus     string
	home    string
	dataDir string
	host    *trayhost.Host // nil when the test runs without a tray
	environ []string
	x       *x11            // screenshots and window places, straight from the X server
	api     *httpapi.Client // e.client(), made on first use
}

// binPath is the built app; HERMESDESK_BIN overrides it.
func binPath(t testing.TB) string {
	p := os.Getenv("HERMESDESK_BIN")
	if p == "" {
		p = "../../build/bin/hermesdesk"
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the built app is required in CI (make build): %v", err)
		}
		t.Skipf("no built app at %s (run make build)", abs)
	}
	return abs
}

func newEnv(t testing.TB, withTray bool) *env {
	t.Helper()
	dbustest.Require(t, "Xvfb", "openbox", "wmctrl", "xdotool", "xwininfo", "xprop", "import", "dbus-daemon")
	e := &env{t: t, bin: binPath(t)}
	// Short paths: the runtime dir holds unix sockets.
	root, err := os.MkdirTemp("", "hd-desk-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	e.home = filepath.Join(root, "home")
	e.dataDir = filepath.Join(root, "data")
	run := filepath.Join(root, "run")
	for _, d := range []string{e.home, run} {
		os.MkdirAll(d, 0o700)
	}
	e.display = startXvfb(t)
	e.x = &x11{}
	t.Cleanup(e.x.close) // before Xvfb stops
	e.bus = dbustest.Start(t)
	// The core starts the window and the window may start a core: neither
	// is in the launched process's group for long. End every process of
	// this data dir (before Xvfb and the bus go).
	t.Cleanup(func() { killDataDirProcs(e.dataDir) })
	e.environ = append(filteredEnviron(),
		"HOME="+e.home,
		"XDG_CONFIG_HOME="+filepath.Join(e.home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(e.home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(e.home, ".cache"),
		"XDG_RUNTIME_DIR="+run,
		"HERMESDESK_HOME="+e.dataDir,
		"DISPLAY="+e.display,
		"DBUS_SESSION_BUS_ADDRESS="+e.bus,
		// WebKitGTK can paint a blank window under Xvfb otherwise.
		"WEBKIT_DISABLE_DMABUF_RENDERER=1",
		"NO_AT_BRIDGE=1",
		"GDK_BACKEND=x11",
	)
	e.background(exec.Command("openbox", "--sm-disable"))
	e.waitFor("openbox to manage the screen", 10*time.Second, func() bool {
		out, err := e.output("wmctrl", "-m")
		return err == nil && strings.Contains(out, "Openbox")
	})
	if withTray {
		h, err := trayhost.New(e.bus)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		e.host = h
	}
	return e
}

// filteredEnviron drops the developer's desktop session from the test's.
func filteredEnviron() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "HOME", "XDG_CONFIG_HOME",
			"XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "HERMESDESK_HOME", "APPIMAGE", "GTK_THEME":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// startXvfb starts a virtual display on a free number (Xvfb picks it and
// writes it to -displayfd) and returns ":N".
func startXvfb(t testing.TB) string {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1400x900x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() { killGroup(cmd) })
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
		r.Close()
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatal("Xvfb reported no display")
		}
		return ":" + n
	case <-time.After(15 * time.Second):
		t.Fatal("Xvfb did not start")
	}
	return ""
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
}

// background starts a helper program of the test, killed at the end.
func (e *env) background(cmd *exec.Cmd) {
	cmd.Env = e.environ
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		e.t.Fatalf("%s: %v", cmd.Path, err)
	}
	e.t.Cleanup(func() { killGroup(cmd) })
}

func (e *env) output(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = e.environ
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%s %v: %w: %s", name, args, err, stderr.String())
	}
	return string(out), nil
}

func (e *env) must(name string, args ...string) string {
	e.t.Helper()
	out, err := e.output(name, args...)
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// waitFor polls cond until it holds; the timeout is a deadline against
// hanging, not a speed target.
func (e *env) waitFor(what string, timeout time.Duration, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// app is one launched hermesdesk.
type app struct {
	e      *env
	cmd    *exec.Cmd
	done   chan struct{}
	err    error
	output *bytes.Buffer
}

func (e *env) startApp(args ...string) *app {
	e.t.Helper()
	cmd := exec.Command(e.bin, args...)
	cmd.Env = e.environ
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	// Its own group, so cleanup reaches WebKit's helpers and the tray too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	a := &app{e: e, cmd: cmd, done: make(chan struct{}), output: out}
	go func() { a.err = cmd.Wait(); close(a.done) }()
	e.t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-a.done
		if e.t.Failed() {
			e.t.Logf("app %d output:\n%s", cmd.Process.Pid, out.String())
			e.t.Logf("app log:\n%s", e.log())
		}
	})
	return a
}

func (a *app) pid() int { return a.cmd.Process.Pid }

func (a *app) alive() bool {
	select {
	case <-a.done:
		return false
	default:
		return true
	}
}

// wait returns the exit code once the app has exited.
func (a *app) wait(timeout time.Duration) int {
	a.e.t.Helper()
	select {
	case <-a.done:
	case <-time.After(timeout):
		a.e.t.Fatalf("app %d still running after %v", a.pid(), timeout)
	}
	var ee *exec.ExitError
	if errors.As(a.err, &ee) {
		return ee.ExitCode()
	}
	if a.err != nil {
		a.e.t.Fatalf("app: %v", a.err)
	}
	return 0
}

// log is the core's log followed by the window's.
func (e *env) log() string {
	b, _ := os.ReadFile(filepath.Join(e.dataDir, "logs", "hermesdesk.log"))
	w, _ := os.ReadFile(filepath.Join(e.dataDir, "logs", "window.log"))
	return string(b) + string(w)
}

// window finds the app's top-level window by exact title (mapped or not).
func (e *env) window(title string) (string, bool) {
	out, err := e.output("xdotool", "search", "--name", "^"+title+"$")
	if err != nil {
		return "", false
	}
	for _, id := range strings.Fields(out) {
		// GTK also creates unnamed helper windows; the titled one that has
		// a WM_CLASS is the real top-level.
		if c, err := e.output("xprop", "-id", id, "WM_CLASS"); err == nil && strings.Contains(c, "hermesdesk") {
			return id, true
		}
	}
	return "", false
}

// mapState is xwininfo's "IsViewable", "IsUnMapped" or "IsUnviewable".
func (e *env) mapState(id string) string {
	out, err := e.output("xwininfo", "-id", id)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Map State:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// wmState is the ICCCM WM_STATE the window manager set: Normal or Iconic.
func (e *env) wmState(id string) string {
	out, _ := e.output("xprop", "-id", id, "WM_STATE")
	if i := strings.Index(out, "window state:"); i >= 0 {
		return strings.Fields(out[i+len("window state:"):])[0]
	}
	return ""
}

func (e *env) waitWindow(state string) string {
	e.t.Helper()
	var id string
	e.waitFor("window "+state, 30*time.Second, func() bool {
		var ok bool
		id, ok = e.window(windowTitle)
		return ok && e.mapState(id) == state
	})
	return id
}

// closeWindow asks the window manager to close the window, which sends
// WM_DELETE_WINDOW: what the title bar's × does.
func (e *env) closeWindow(id string) {
	e.t.Helper()
	e.must("wmctrl", "-i", "-c", id) // wmctrl parses the id with strtoul(…, 0)
}

// screenshot grabs the whole screen.
func (e *env) screenshot() image.Image {
	e.t.Helper()
	img, err := e.x.rootImage(e.display)
	if err != nil {
		e.t.Fatalf("screenshot: %v", err)
	}
	return img
}

// geometry is the window's client rectangle on the screen (its absolute
// place, right under a reparenting window manager, where xdotool's is off
// by the frame).
func (e *env) geometry(id string) image.Rectangle {
	e.t.Helper()
	r, err := e.x.geometry(e.display, id)
	if err != nil {
		e.t.Fatalf("geometry of %s: %v", id, err)
	}
	return r
}

// childPIDs lists the descendants of pid by walking /proc.
func childPIDs(pid int) []int {
	parent := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, d := range entries {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesised command: state ppid ...
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			parent[pp] = append(parent[pp], p)
		}
	}
	var out []int
	var walk func(int)
	walk = func(p int) {
		for _, c := range parent[p] {
			out = append(out, c)
			walk(c)
		}
	}
	walk(pid)
	return out
}

func cmdline(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

// procs lists this data dir's live processes running program (a base
// name: "hermesdesk", "hermesdesk-window"), by their environment.
func (e *env) procs(program string) []int {
	var out []int
	for _, pid := range dataDirProcs(e.dataDir) {
		f := strings.Fields(cmdline(pid))
		if len(f) > 0 && filepath.Base(f[0]) == program && !processGone(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// windowProc is the live window process's pid, 0 if none.
func (e *env) windowProc() int {
	if p := e.procs("hermesdesk-window"); len(p) > 0 {
		return p[0]
	}
	return 0
}

// coreProcs are the live `hermesdesk` processes that are neither a CLI
// command nor a shim nor the demo agent: the core (and launches).
func (e *env) coreProcs() []int {
	var out []int
	for _, pid := range e.procs("hermesdesk") {
		f := strings.Fields(cmdline(pid))
		if len(f) == 1 || f[1] == "--background" || !strings.HasPrefix(f[1], "-") && !isSubcommand(f[1]) {
			out = append(out, pid)
		}
	}
	return out
}

func isSubcommand(s string) bool {
	switch s {
	case "shim", "serve", "runs", "ask", "schedules", "demo-agent":
		return true
	}
	return false
}

// dataDirProcs lists the processes whose environment names dataDir.
func dataDirProcs(dataDir string) []int {
	want := []byte("HERMESDESK_HOME=" + dataDir + "\x00")
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, d := range entries {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/environ")
		if err == nil && bytes.Contains(append(b, 0), want) {
			out = append(out, pid)
		}
	}
	return out
}

// killDataDirProcs SIGKILLs every process of dataDir and waits for them.
func killDataDirProcs(dataDir string) {
	pids := dataDirProcs(dataDir)
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, p := range pids {
		for !processGone(p) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// mapsGUI reports whether pid maps GTK or WebKit.
func mapsGUI(pid int) (bool, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/maps")
	if err != nil {
		return false, err
	}
	return bytes.Contains(b, []byte("libgtk")) || bytes.Contains(b, []byte("libwebkit")), nil
}

func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return true
	}
	// A zombie (exited, not yet reaped by its parent) is gone too.
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] == "Z"
}
