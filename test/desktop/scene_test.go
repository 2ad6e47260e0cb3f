//go:build desktoptest

package desktop

import (
	"context"
	"image"
	"os"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// sizeWindow moves the window to the screen's corner at w×h and waits until
// the window manager gave it that width (the tests that click at places in
// the window use a fixed layout).
func (e *env) sizeWindow(id string, w, h int) {
	e.must("wmctrl", "-i", "-r", id, "-e", "0,0,0,"+itoa(w)+","+itoa(h))
	e.waitFor("the window to take its new size", 10*time.Second, func() bool { return e.geometry(id).Dx() == w })
}

// addProjectShown adds a project for workspace (made if missing) through
// the API and waits until the window's sidebar shows it, then lets its
// page paint: a project with no session opens its new-session page, whose
// message box goes to the demo agent.
func (e *env) addProjectShown(t *testing.T, id, workspace string) run.Project {
	t.Helper()
	sidebar := func() [3]float64 {
		r := e.geometry(id)
		return mean(e.screenshot(), image.Rect(r.Min.X, r.Min.Y+60, r.Min.X+250, r.Min.Y+200))
	}
	before := sidebar()
	os.MkdirAll(workspace, 0o755)
	var p run.Project
	if err := e.client().Call(context.Background(), "POST", "/api/projects", service.CreateProjectRequest{Workspace: workspace}, &p); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the project in the sidebar", 15*time.Second, func() bool {
		now := sidebar()
		return abs(now[0]-before[0])+abs(now[1]-before[1])+abs(now[2]-before[2]) > 1
	})
	time.Sleep(500 * time.Millisecond) // its page paints with it
	return p
}
