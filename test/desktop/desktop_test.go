//go:build desktoptest

package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/testkit/trayhost"
)

const (
	labelOpen      = "Open Hermes Desk"
	labelAutostart = "Start at login"
	labelQuit      = "Quit"
)

// waitRendered waits until a screenshot shows the UI in the window.
func (e *env) waitRendered(id, shot string) {
	e.t.Helper()
	var err error
	deadline := time.Now().Add(30 * time.Second)
	for {
		img := e.screenshot()
		r := e.geometry(id)
		if err = rendered(img, r); err == nil {
			e.t.Logf("screenshots: %s, %s", saveShot(img, shot), saveShot(crop(img, r), "window-"+shot))
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("window never rendered the UI: %v (screenshot %s)", err, saveShot(img, shot))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func (e *env) waitItem(not ...trayhost.Item) trayhost.Item {
	e.t.Helper()
	it, err := e.host.WaitItem(30*time.Second, not...)
	if err != nil {
		e.t.Fatal(err)
	}
	return it
}

func (e *env) click(it trayhost.Item, label string) {
	e.t.Helper()
	if err := e.host.Click(it, label); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) waitChecked(it trayhost.Item, want bool) {
	e.t.Helper()
	e.waitFor("Start at login checkbox", 15*time.Second, func() bool {
		en, err := e.host.Entry(it, labelAutostart)
		return err == nil && en.Toggle == "checkmark" && en.Checked == want
	})
}

// TestShellLifecycle walks one app through what a person does with it:
// launch (core + window), close (hidden, the window process stays within
// its grace), tray Open (the same window back), Start at login, a second
// launch, and tray Quit (everything ends).
func TestShellLifecycle(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()

	id := e.waitWindow("IsViewable")
	e.waitRendered(id, "desktop-shown.png")
	it := e.waitItem()
	win := e.windowProc()
	if win == 0 {
		t.Fatal("no window process")
	}

	// Closing hides the window into the tray; the core keeps running.
	e.closeWindow(id)
	e.waitWindow("IsUnMapped")
	if !a.alive() {
		t.Fatal("core exited when its window closed")
	}

	// Tray Open brings the same window process back (warm).
	e.click(it, labelOpen)
	e.waitWindow("IsViewable")
	if w := e.windowProc(); w != win {
		t.Fatalf("tray Open within the grace period started window %d instead of reshowing %d", w, win)
	}

	// Start at login: the checkbox writes the entry, unchecking removes it,
	// and the checkbox follows the file. The entry starts the core alone.
	entry := filepath.Join(e.home, ".config", "autostart", "hermesdesk.desktop")
	e.waitChecked(it, false)
	e.click(it, labelAutostart)
	e.waitFor("autostart entry", 15*time.Second, func() bool { _, err := os.Stat(entry); return err == nil })
	body, _ := os.ReadFile(entry)
	if !strings.Contains(string(body), "Exec="+e.bin+" --background\n") {
		t.Fatalf("autostart entry does not start this binary in the background:\n%s", body)
	}
	e.waitChecked(it, true)
	e.click(it, labelAutostart)
	e.waitFor("autostart entry removed", 15*time.Second, func() bool { _, err := os.Stat(entry); return os.IsNotExist(err) })
	e.waitChecked(it, false)

	// A second launch hands its arguments to the core and exits; the
	// window comes back from hidden.
	e.closeWindow(id)
	e.waitWindow("IsUnMapped")
	// (a folder that exists: any other word is a mistake said in the terminal)
	folder := filepath.Join(e.home, "some-project")
	os.MkdirAll(folder, 0o755)
	second := e.startApp(folder)
	if code := second.wait(30 * time.Second); code != 0 {
		t.Fatalf("second launch exited with %d", code)
	}
	e.waitWindow("IsViewable")
	e.waitFor("second-instance log line", 10*time.Second, func() bool {
		return strings.Contains(e.log(), `msg="second instance" args=[`+folder+`]`)
	})
	if !a.alive() {
		t.Fatal("first instance exited")
	}

	// Quit from the tray ends everything, cleanly.
	e.click(it, labelQuit)
	if code := a.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d after tray Quit", code)
	}
	e.waitFor("window process to exit with the core", 15*time.Second, func() bool { return processGone(win) })
	if err := e.host.WaitGone(it, 15*time.Second); err != nil {
		t.Fatal(err)
	}
}

// TestBackgroundStartsInTray: --background starts the core alone (no
// window process) until the tray icon is clicked.
func TestBackgroundStartsInTray(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp("--background")
	it := e.waitItem()
	e.waitFor("startup log", 15*time.Second, func() bool { return strings.Contains(e.log(), "background=true") })
	for range 10 {
		if w := e.windowProc(); w != 0 {
			t.Fatalf("window process %d started despite --background", w)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := e.host.Activate(it); err != nil { // left click on the icon
		t.Fatal(err)
	}
	e.waitWindow("IsViewable")
	if !a.alive() {
		t.Fatal("core exited")
	}
	// A second --background (the login entry firing again) changes nothing.
	if code := e.startApp("--background").wait(30 * time.Second); code != 0 {
		t.Fatalf("second --background exited with %d", code)
	}
	if n := len(e.coreProcs()); n != 1 {
		t.Fatalf("%d cores running", n)
	}
}

// TestNoTrayHostMinimises: without a tray, closing must not hide the window
// into nothing.
func TestNoTrayHostMinimises(t *testing.T) {
	e := newEnv(t, false)
	a := e.startApp()
	id := e.waitWindow("IsViewable")
	e.waitFor("startup log", 15*time.Second, func() bool { return strings.Contains(e.log(), "no tray host") })
	e.closeWindow(id)
	e.waitFor("window minimised", 15*time.Second, func() bool { return e.wmState(id) == "Iconic" })
	if !a.alive() {
		t.Fatal("app exited on close without a tray")
	}
	// Launching it again brings the window back.
	e.startApp().wait(30 * time.Second)
	e.waitFor("window restored", 15*time.Second, func() bool { return e.wmState(id) == "Normal" && e.mapState(id) == "IsViewable" })
}

// TestUnusableDataDirShowsDialog: a data dir that cannot be created gives a
// clear dialog and one exit with status 1, not a crash loop.
func TestUnusableDataDirShowsDialog(t *testing.T) {
	e := newEnv(t, false)
	file := filepath.Join(e.home, "not-a-dir")
	os.WriteFile(file, []byte("x"), 0o600)
	e.dataDir = filepath.Join(file, "data")
	e.environ = append(e.environ, "HERMESDESK_HOME="+e.dataDir)
	a := e.startApp()
	var dlg string
	e.waitFor("error dialog", 30*time.Second, func() bool {
		id, ok := e.window("Hermes Desk cannot start")
		dlg = id
		return ok && e.mapState(id) == "IsViewable"
	})
	if !a.alive() {
		t.Fatal("app exited before the person read the dialog")
	}
	e.closeWindow(dlg)
	if code := a.wait(30 * time.Second); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	if !strings.Contains(a.output.String(), "not a directory") {
		t.Errorf("stderr does not say why:\n%s", a.output.String())
	}
}

// TestBackgroundWithoutTrayStaysReachable: --background with no tray to
// come back from maps the window minimised rather than not at all.
func TestBackgroundWithoutTrayStaysReachable(t *testing.T) {
	e := newEnv(t, false)
	e.startApp("--background")
	var id string
	e.waitFor("minimised window", 30*time.Second, func() bool {
		var ok bool
		id, ok = e.window(windowTitle)
		return ok && e.wmState(id) == "Iconic"
	})
}

// TestSIGTERMQuits: logout or `kill` ends the core and its window cleanly,
// even though closing the window only hides it.
func TestSIGTERMQuits(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()
	e.waitWindow("IsViewable")
	e.waitItem()
	var win int
	e.waitFor("window process", 15*time.Second, func() bool { win = e.windowProc(); return win != 0 })
	e.waitFor("startup to finish", 15*time.Second, func() bool { return strings.Contains(e.log(), "tray started") })
	syscall.Kill(a.pid(), syscall.SIGTERM)
	if code := a.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d after SIGTERM", code)
	}
	e.waitFor("window process to exit", 15*time.Second, func() bool { return processGone(win) })
}
