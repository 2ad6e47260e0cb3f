//go:build desktoptest

package desktop

import (
	"context"
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
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
	"github.com/hermesdesk/hermesdesk/testkit/syncbuf"
)

// TestApprovalInWindow is the product's core loop as a person meets it: a
// run started elsewhere (here `hermesdesk ask`, through the app's local API)
// shows up in the window, which asks for an approval; the person opens the
// session and presses 1 ("Allow once"); the agent, in its own shim process,
// goes on and finishes. It checks the whole chain: local socket → supervisor
// → shim → demo agent → journal → doorbell → Desktop.Request → the webview's
// keyboard shortcut → control socket → agent.
func TestApprovalInWindow(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()
	id := e.waitWindow("IsViewable")
	e.waitRendered(id, "run-empty.png")
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })

	project := filepath.Join(e.home, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	ask := exec.Command(e.bin, "ask", "--agent", "demo", "--project", project, "/scenario approval\nlist my files")
	ask.Env = e.environ
	out := &syncBuffer{}
	ask.Stdout, ask.Stderr = out, out
	if err := ask.Start(); err != nil {
		t.Fatal(err)
	}
	askDone := make(chan error, 1)
	go func() { askDone <- ask.Wait() }()
	t.Cleanup(func() {
		_ = ask.Process.Kill()
		if t.Failed() {
			t.Logf("ask output:\n%s", out.String())
		}
	})
	e.waitFor("the agent to ask for approval", 60*time.Second, func() bool {
		return strings.Contains(out.String(), "Approval needed")
	})

	// The sidebar lists the new project, expanded, with its one session
	// under "Today"; open it. (Fixed layout: the row's place in the window
	// is the same at every start.)
	win := e.geometry(id)
	sessionRow := [2]int{win.Min.X + 90, win.Min.Y + 165}
	clicked := time.Time{}

	var last image.Image
	t.Cleanup(func() {
		if t.Failed() && last != nil {
			t.Logf("last screenshot: %s", saveShot(last, "run-failed.png"))
		}
	})
	e.waitFor("the approval card in the window", 30*time.Second, func() bool {
		// The sidebar picks the session up on its next refresh: click
		// until the session is open.
		if time.Since(clicked) > 2*time.Second {
			e.must("xdotool", "mousemove", itoa(sessionRow[0]), itoa(sessionRow[1]), "click", "1")
			clicked = time.Now()
		}
		last = e.screenshot()
		return needsYou(last, win) > 5000
	})
	saveShot(crop(e.screenshot(), win), "run-approval.png")

	// "1" answers with the first option, Allow once.
	e.must("xdotool", "key", "1")
	select {
	case err := <-askDone:
		if err != nil {
			t.Fatalf("ask ended with %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the run did not finish after the approval was given in the window")
	}
	if !strings.Contains(out.String(), "Permission granted") {
		t.Fatalf("the agent did not get the window's approval:\n%s", out.String())
	}
	e.waitFor("the approval card to go", 30*time.Second, func() bool {
		last = e.screenshot()
		return needsYou(last, win) < 500
	})
	saveShot(crop(e.screenshot(), win), "run-done.png")

	// The finished run's shim keeps its agent warm for the next message;
	// quitting the app closes such idle agents (running runs would go on).
	recs, _ := filepath.Glob(filepath.Join(e.dataDir, control.WarmDirName, "*.json"))
	if len(recs) != 1 {
		t.Fatalf("warm records after the run: %v", recs)
	}
	w, err := control.ReadWarm(e.dataDir, strings.TrimSuffix(filepath.Base(recs[0]), ".json"))
	if err != nil {
		t.Fatal(err)
	}
	syscall.Kill(a.pid(), syscall.SIGTERM)
	if code := a.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d after SIGTERM", code)
	}
	e.waitFor("the warm shim and its agent to close on quit", 15*time.Second, func() bool {
		return !runprocs.Alive(w.Pid) && !runprocs.Alive(w.AgentPid)
	})
}

// needsYou counts the main pane's pixels (right of the sidebar) in the soft
// amber of "needs you" (UI.md; the frontend's --needs-soft, light and dark):
// a pending approval card's background and the header's "Needs approval"
// badge. The sidebar's needs-you dot is left out.
func needsYou(img image.Image, win image.Rectangle) int {
	soft := [][3]int{{0xff, 0xf5, 0xe0}, {0x33, 0x28, 0x0f}}
	n := 0
	r := image.Rect(win.Min.X+320, win.Min.Y, win.Max.X, win.Max.Y).Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			for _, c := range soft {
				if near(int(cr>>8), c[0]) && near(int(cg>>8), c[1]) && near(int(cb>>8), c[2]) {
					n++
					break
				}
			}
		}
	}
	return n
}

func near(a, b int) bool { return a-b <= 4 && b-a <= 4 }

func itoa(n int) string { return strconv.Itoa(n) }

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer = syncbuf.Buffer

// TestAppTakesOverFromServe: the app started while `hermesdesk serve` owns
// the data dir proxies to it; when serve dies, the app becomes the data
// dir's supervisor, so runs always have someone to adopt and fence them.
func TestAppTakesOverFromServe(t *testing.T) {
	e := newEnv(t, true)
	serve := exec.Command(e.bin, "serve", "--addr", "127.0.0.1:0")
	serve.Env = e.environ
	out := &syncBuffer{}
	serve.Stdout, serve.Stderr = out, out
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	e.waitFor("serve to print its login link", 30*time.Second, func() bool {
		return strings.Contains(out.String(), "?token=")
	})

	e.startApp()
	e.waitWindow("IsViewable")
	e.waitFor("the app to proxy to serve", 30*time.Second, func() bool {
		return strings.Contains(e.log(), "using its local API until it goes away")
	})

	_ = serve.Process.Signal(syscall.SIGKILL) // a crash: no clean hand-over
	e.waitFor("the app to take over", 30*time.Second, func() bool {
		return strings.Contains(e.log(), "this process is now its supervisor")
	})
	// The CLI reaches the app's own local API now.
	if got, err := e.output(e.bin, "runs", "ls"); err != nil {
		t.Fatalf("runs ls after take-over: %v\n%s", err, got)
	}
}

// TestSecondLaunchOpensFolder: `hermesdesk DIR` while the app runs reshows
// the window and opens DIR as a project, as a double-clicked folder would.
func TestSecondLaunchOpensFolder(t *testing.T) {
	e := newEnv(t, true)
	e.startApp()
	id := e.waitWindow("IsViewable")
	e.waitRendered(id, "second-launch.png")

	project := filepath.Join(e.home, "launched-project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	second := exec.Command(e.bin, "launched-project")
	second.Dir = e.home // a relative path, resolved against the launch's cwd
	second.Env = e.environ
	// The launcher is the core program (no WebKit): a launch handed to the
	// running app succeeds, quietly.
	out, err := second.CombinedOutput()
	if err != nil {
		t.Fatalf("second launch: %v\n%s", err, out)
	}
	for _, noise := range []string{"Overriding existing handler", "WebKit", "Gtk-"} {
		if strings.Contains(string(out), noise) {
			t.Errorf("second launch printed %q:\n%s", noise, out)
		}
	}

	for _, kv := range e.environ {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			t.Setenv("XDG_RUNTIME_DIR", v) // the app's socket lives there
		}
	}
	c := httpapi.NewLocalClient(httpapi.SocketPath(e.dataDir))
	e.waitFor("the launched folder to become a project", 30*time.Second, func() bool {
		var ps []run.Project
		if err := c.Call(context.Background(), "GET", "/api/projects", nil, &ps); err != nil {
			return false
		}
		for _, p := range ps {
			if p.Workspace == project {
				return true
			}
		}
		return false
	})
}
