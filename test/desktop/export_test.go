//go:build desktoptest

package desktop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// TestExportSavesInTheWindow: Export → Session as Markdown in the desktop
// window opens the native Save dialog in ~/Downloads with the session's
// name; accepting it writes the file and the page says where (issue: the
// web view's blob download was refused and nothing happened).
func TestExportSavesInTheWindow(t *testing.T) {
	e := newEnv(t, false)
	downloads := filepath.Join(e.home, "Downloads")
	os.MkdirAll(downloads, 0o755)
	e.startApp()
	id := e.waitWindow("IsViewable")
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	// Wide enough that the header is one row (it wraps when its parts do
	// not fit: app.css .main-head).
	e.must("wmctrl", "-i", "-r", id, "-e", "0,0,0,1300,760")
	e.waitFor("the window to take its new size", 10*time.Second, func() bool { return e.geometry(id).Dx() == 1300 })
	e.waitRendered(id, "export-before.png")

	c, ctx := e.client(), context.Background()
	workspace := filepath.Join(e.home, "project")
	os.MkdirAll(workspace, 0o755)
	var p run.Project
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: workspace}, &p); err != nil {
		t.Fatal(err)
	}
	var s run.Session
	if err := c.Call(ctx, "POST", "/api/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo", Title: "Fix the login bug"}, &s); err != nil {
		t.Fatal(err)
	}
	var r run.StartResult
	req := run.StartRequest{SessionID: s.ID, Message: "hello there", ClientRequestID: fmt.Sprint(time.Now().UnixNano())}
	if err := c.Call(ctx, "POST", "/api/runs", req, &r); err != nil {
		t.Fatal(err)
	}
	e.waitRunDone(r.RunID, 60*time.Second)

	win := e.geometry(id)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screenshot: %s", saveShot(e.screenshot(), "export-failed.png"))
		}
	})
	for i := 0; i < 2; i++ {
		e.must("xdotool", "mousemove", itoa(win.Min.X+90), itoa(win.Min.Y+165), "click", "1")
		time.Sleep(2 * time.Second)
	}
	t.Logf("session: %s", saveShot(crop(e.screenshot(), win), "window-export-session.png"))

	// The header's Export button (the second from the right edge, one row
	// at this width), then its first item.
	e.must("xdotool", "mousemove", itoa(win.Max.X-66), itoa(win.Min.Y+22), "click", "1")
	time.Sleep(time.Second)
	e.must("xdotool", "mousemove", itoa(win.Max.X-215), itoa(win.Min.Y+58), "click", "1")

	// GTK's Save dialog, in Downloads with the session's name: accept it.
	dialog := centre(e.titled("Export"))
	t.Logf("dialog: %s", saveShot(e.screenshot(), "export-dialog.png"))
	e.must("xdotool", "mousemove", itoa(dialog.X), itoa(dialog.Y))
	e.must("xdotool", "key", "Return")
	want := filepath.Join(downloads, "Fix-the-login-bug.md")
	e.waitFor("the export in ~/Downloads", 20*time.Second, func() bool { _, err := os.Stat(want); return err == nil })
	body, _ := os.ReadFile(want)
	if !strings.Contains(string(body), "hello there") || !strings.Contains(string(body), "demo agent") {
		t.Fatalf("the saved export:\n%s", body)
	}
	time.Sleep(500 * time.Millisecond)
	t.Logf("saved: %s", saveShot(crop(e.screenshot(), win), "window-export-saved.png"))
	if !strings.Contains(e.log(), "export saved") {
		t.Fatalf("the window did not save the export:\n%s", e.log())
	}
}
