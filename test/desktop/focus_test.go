//go:build desktoptest

package desktop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// TestReopenedWindowTakesFocus: the person types in the message box, goes
// to another application, then opens Hermes Desk from the tray (the show a
// notification's click sends too): its window comes back with the keyboard
// (_NET_ACTIVE_WINDOW) and the next words land in the message box — from
// behind another window, hidden, and hidden past its grace period, where a
// new window process opens a new page that had nothing focused and every
// key was lost (issue 23.14).
func TestReopenedWindowTakesFocus(t *testing.T) {
	src := buildDragSource(t)
	e := newEnv(t, true)
	e.withGrace(3 * time.Second)
	e.startApp()
	id := e.waitWindow("IsViewable")
	e.sizeWindow(id, 1000, 760)
	e.waitRendered(id, "focus-shown.png")
	it := e.waitItem()
	ctx := context.Background()
	workspace := filepath.Join(e.home, "project")
	os.MkdirAll(workspace, 0o755)
	p := e.addProjectShown(t, id, workspace)

	e.startDragSource(src, "/etc/hostname") // another application's window
	other := centre(e.titled("dnd-source"))
	otherID := strings.Fields(e.must("xdotool", "search", "--onlyvisible", "--name", "^dnd-source$"))[0]
	active := func() string { a, _ := e.x.activeWindow(e.display); return a }

	app := e.geometry(id)
	e.must("xdotool", "windowactivate", "--sync", id)
	e.must("xdotool", "mousemove", itoa(app.Min.X+app.Dx()*2/3), itoa(app.Max.Y-60), "click", "1")
	e.must("xdotool", "type", "--delay", "20", "one")
	want := "one"
	for _, how := range []string{"behind", "hidden", "cold"} {
		win := e.windowProc()
		if how != "behind" {
			e.closeWindow(id)
			e.waitWindow("IsUnMapped")
		}
		if how == "cold" { // past its grace: a new window process, a new page
			e.waitFor("the hidden window's process to exit", 30*time.Second, func() bool { return processGone(win) })
			want = ""
		}
		e.must("xdotool", "mousemove", itoa(other.X), itoa(other.Y), "click", "1")
		e.waitFor("the other window to have the keyboard", 10*time.Second, func() bool { return active() == otherID })
		e.click(it, labelOpen)
		id = e.waitWindow("IsViewable")
		e.waitFor("the window reopened "+how+" to take the keyboard", 10*time.Second, func() bool { return active() == id })
		if how == "cold" {
			e.waitRendered(id, "focus-cold.png")
			time.Sleep(2 * time.Second) // the project's page
		}
		e.must("xdotool", "type", "--delay", "20", " "+how)
		want += " " + how
		time.Sleep(time.Second)
		t.Logf("typed: %s", saveShot(crop(e.screenshot(), e.geometry(id)), "window-focus-"+how+".png"))
	}
	e.must("xdotool", "key", "Return")
	var sent string
	e.waitFor("the message typed across the reopenings", 30*time.Second, func() bool {
		var ss []run.Session
		if err := e.client().Call(ctx, "GET", "/api/sessions?project_id="+p.ID, nil, &ss); err != nil || len(ss) == 0 {
			return false
		}
		var sd service.SessionDetail
		if err := e.client().Call(ctx, "GET", "/api/sessions/"+ss[0].ID, nil, &sd); err != nil {
			return false
		}
		for _, m := range sd.Messages {
			if m.Role == run.RoleUser {
				sent = m.Content
				return true
			}
		}
		return false
	})
	if want = strings.TrimSpace(want); sent != want {
		t.Fatalf("sent %q, want %q", sent, want)
	}
}
