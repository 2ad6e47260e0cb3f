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

// TestShellLifecycle walks one app through what a person does with it.
func TestShellLifecycle(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()

	id := e.waitWindow("IsViewable")
	e.waitRendered(id, "desktop-shown.png")
	it := e.waitItem()

	// Closing hides the window into the tray; the app keeps running.
	e.closeWindow(id)
	e.waitWindow("IsUnMapped")
	if !a.alive() {
		t.Fatal("app exited when its window closed")
	}

	// Tray Open brings it back.
	e.click(it, labelOpen)
	e.waitWindow("IsViewable")

	// Start at login: the checkbox writes the entry, unchecking removes it,
	// and the checkbox follows the file.
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

	// A second launch hands its arguments to the first and exits; the first
	// window comes back from hidden.
	e.closeWindow(id)
	e.waitWindow("IsUnMapped")
	second := e.startApp("/tmp/some-project")
	t.Logf("second instance exited with %d", second.wait(30*time.Second)) // Wails exits it with 1
	e.waitWindow("IsViewable")
	e.waitFor("second-instance log line", 10*time.Second, func() bool {
		return strings.Contains(e.log(), `msg="second instance" args=[/tmp/some-project]`)
	})
	if !a.alive() {
		t.Fatal("first instance exited")
	}

	// Killing the tray helper gets a new one, which registers again.
	helper := trayHelper(a.pid())
	if helper == 0 {
		t.Fatal("no tray helper process")
	}
	syscall.Kill(helper, syscall.SIGKILL)
	it2 := e.waitItem(it)
	e.waitFor("new tray helper", 15*time.Second, func() bool {
		h := trayHelper(a.pid())
		return h != 0 && h != helper
	})

	// Quit from the tray ends everything, cleanly.
	helper = trayHelper(a.pid())
	e.click(it2, labelQuit)
	if code := a.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d after tray Quit", code)
	}
	e.waitFor("tray helper to exit with the app", 15*time.Second, func() bool { return processGone(helper) })
	if err := e.host.WaitGone(it2, 15*time.Second); err != nil {
		t.Fatal(err)
	}
}

// TestKillingMainEndsHelper: the helper never outlives the app.
func TestKillingMainEndsHelper(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()
	e.waitItem()
	var helper int
	e.waitFor("tray helper", 15*time.Second, func() bool { helper = trayHelper(a.pid()); return helper != 0 })
	syscall.Kill(a.pid(), syscall.SIGKILL)
	a.wait(15 * time.Second)
	e.waitFor("orphaned tray helper to exit", 15*time.Second, func() bool { return processGone(helper) })
}

// TestBackgroundStartsInTray: --background shows no window until the tray
// icon is clicked.
func TestBackgroundStartsInTray(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp("--background")
	it := e.waitItem()
	e.waitFor("startup log", 15*time.Second, func() bool { return strings.Contains(e.log(), "background=true") })
	// Wails maps the window for an instant before hiding it, so this asks
	// that it settles hidden and stays so.
	shown := func() bool { id, ok := e.window(windowTitle); return ok && e.mapState(id) == "IsViewable" }
	e.waitFor("window hidden", 10*time.Second, func() bool { return !shown() })
	for range 10 {
		if shown() {
			t.Fatal("window shown despite --background")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := e.host.Activate(it); err != nil { // left click on the icon
		t.Fatal(err)
	}
	e.waitWindow("IsViewable")
	if !a.alive() {
		t.Fatal("app exited")
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
	if trayHelper(a.pid()) != 0 {
		t.Fatal("tray helper started without a tray host")
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

// TestSIGTERMQuits: logout or `kill` ends the app (and its helper) cleanly,
// even though closing the window only hides it.
func TestSIGTERMQuits(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()
	e.waitWindow("IsViewable")
	e.waitItem()
	var helper int
	e.waitFor("tray helper", 15*time.Second, func() bool { helper = trayHelper(a.pid()); return helper != 0 })
	e.waitFor("startup to finish", 15*time.Second, func() bool { return strings.Contains(e.log(), "tray helper started") })
	syscall.Kill(a.pid(), syscall.SIGTERM)
	if code := a.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d after SIGTERM", code)
	}
	e.waitFor("tray helper to exit", 15*time.Second, func() bool { return processGone(helper) })
}
