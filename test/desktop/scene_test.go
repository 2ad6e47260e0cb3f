//go:build desktoptest

package desktop

import (
	"context"
	"image"
	"os"
	"os/exec"
	"path/filepath"
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

// gitProjectShown makes a git repository with one empty commit under the
// test's home and adds it as a project shown in the window's sidebar.
func (e *env) gitProjectShown(t *testing.T, id string) run.Project {
	t.Helper()
	repo := filepath.Join(e.home, "repo")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", repo},
		{"-C", repo, "commit", "-q", "--allow-empty", "-m", "start"},
	} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return e.addProjectShown(t, id, repo)
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
