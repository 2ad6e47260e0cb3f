//go:build desktoptest

package desktop

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// TestDropAttaches drops a file from a file manager-like drag source on the
// window: it becomes an attachment of the next message by its own path (no
// copy), the window stays the app, and the demo agent, which echoes what it
// receives, gets the file (issue: a drop on the desktop window was ignored).
func TestDropAttaches(t *testing.T) {
	src := buildDragSource(t)
	e := newEnv(t, false)
	e.startApp()
	id := e.waitWindow("IsViewable")
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	e.sizeWindow(id, 1000, 760)

	e.waitRendered(id, "attach-before.png")

	// A project with no session yet: the window opens its new-session page,
	// whose message box goes to the demo agent (no real agent is set up).
	ctx := context.Background()
	workspace := filepath.Join(e.home, "project")
	os.MkdirAll(workspace, 0o755)
	p := e.addProjectShown(t, id, workspace)

	// Outside the project: a drop attaches any file the person can read.
	// One on the page, one on the message box (where the page sees the
	// drop too: it must not upload a second copy).
	dir := t.TempDir()
	files := []string{filepath.Join(dir, "drop notes.txt"), filepath.Join(dir, "second.md")}
	app := e.geometry(id)
	targets := []image.Point{
		image.Pt(app.Min.X+app.Dx()*2/3, app.Min.Y+app.Dy()/3),
		image.Pt(app.Min.X+app.Dx()*2/3, app.Max.Y-75),
	}
	for i, f := range files {
		if err := os.WriteFile(f, []byte("the notes a person dropped\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		d := e.startDragSource(src, f)
		e.drag(centre(e.titled("dnd-source")), targets[i])
		d.expect("drag-", 15*time.Second)
		time.Sleep(time.Second)
	}
	t.Logf("after the drops: %s", saveShot(crop(e.screenshot(), e.geometry(id)), "window-drop-chip.png"))

	// The drag source's window had the focus; back in the app, the
	// composer has it after a drop: type and send.
	e.must("xdotool", "windowactivate", "--sync", id)
	e.must("xdotool", "type", "--delay", "20", "what did I attach?")
	e.must("xdotool", "key", "Return")

	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screenshot: %s", saveShot(crop(e.screenshot(), e.geometry(id)), "window-drop-failed.png"))
		}
	})
	var msgs []service.MessageView
	e.waitFor("the message with its attachment", 60*time.Second, func() bool {
		var ss []run.Session
		if err := e.client().Call(ctx, "GET", "/api/sessions?project_id="+p.ID, nil, &ss); err != nil || len(ss) == 0 {
			return false
		}
		var sd service.SessionDetail
		if err := e.client().Call(ctx, "GET", "/api/sessions/"+ss[0].ID, nil, &sd); err != nil {
			return false
		}
		msgs = sd.Messages
		for _, m := range msgs {
			if m.Role == run.RoleAssistant && m.Run != nil && m.Run.Status.Terminal() {
				return true
			}
		}
		return false
	})
	var user, answer *service.MessageView
	for i := range msgs {
		switch msgs[i].Role {
		case run.RoleUser:
			user = &msgs[i]
		case run.RoleAssistant:
			answer = &msgs[i]
		}
	}
	if user == nil || !reflect.DeepEqual(user.Attachments, files) {
		t.Fatalf("the message's attachments are not the dropped files %q: %+v", files, msgs)
	}
	if !strings.Contains(user.Content, "what did I attach?") {
		t.Fatalf("the message text: %q", user.Content)
	}
	if answer == nil || !strings.Contains(answer.Content, "drop notes.txt") {
		t.Fatalf("the demo agent did not receive the dropped file: %+v", answer)
	}
	saveShot(crop(e.screenshot(), e.geometry(id)), "window-drop-answer.png")
}

// TestAbandonedDragAttachesNothing: a file dragged over the window and
// taken away again, then a piece of text dropped on it, attaches nothing.
// (Wails keeps the paths of the last file drag that crossed the window and
// hands them over on the next drop of any kind.)
func TestAbandonedDragAttachesNothing(t *testing.T) {
	src := buildDragSource(t)
	e := newEnv(t, false)
	e.startApp()
	id := e.waitWindow("IsViewable")
	e.sizeWindow(id, 1000, 760)
	e.waitRendered(id, "abandoned-before.png")
	app := e.geometry(id)
	over := image.Pt(app.Min.X+app.Dx()*2/3, app.Min.Y+app.Dy()/2)

	file := filepath.Join(t.TempDir(), "not this one.txt")
	os.WriteFile(file, []byte("x\n"), 0o644)
	d := e.startDragSource(src, file)
	home := centre(e.titled("dnd-source"))
	e.dragPath(home, over, home) // back where it came from: no drop on the app
	d.expect("drag-", 15*time.Second)
	d.stop()

	d = e.startDragSource(src, "--text", "just some words")
	e.dragPath(centre(e.titled("dnd-source")), over)
	d.expect("drag-", 15*time.Second)
	time.Sleep(time.Second)
	saveShot(crop(e.screenshot(), e.geometry(id)), "window-abandoned-after.png")
	if strings.Contains(e.log(), "files dropped on the window") {
		t.Fatalf("a text drop handed the window the file of an earlier, abandoned drag:\n%s", e.log())
	}
}

// dragPath presses the first button at the first point and moves through
// the others in small steps, resting on each, then releases.
func (e *env) dragPath(points ...image.Point) {
	e.t.Helper()
	from := points[0]
	e.must("xdotool", "mousemove", itoa(from.X), itoa(from.Y))
	time.Sleep(100 * time.Millisecond)
	e.must("xdotool", "mousedown", "1")
	for _, to := range points[1:] {
		const steps = 24
		for i := 1; i <= steps; i++ {
			e.must("xdotool", "mousemove", itoa(from.X+(to.X-from.X)*i/steps), itoa(from.Y+(to.Y-from.Y)*i/steps))
			time.Sleep(30 * time.Millisecond)
		}
		for i := 0; i < 4; i++ {
			e.must("xdotool", "mousemove", itoa(to.X+i%2), itoa(to.Y))
			time.Sleep(80 * time.Millisecond)
		}
		from = to
	}
	e.must("xdotool", "mouseup", "1")
}
