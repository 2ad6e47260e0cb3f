//go:build desktoptest

package desktop

import (
	"context"
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

// TestPaperclipPicksInTheProject: the paperclip's GTK chooser opens in the
// project folder (a file there is picked by its bare name), and once it
// closes the words typed go to the message box, not to the paperclip
// (issue 23.4 and its polish item: it opened at "Recent" and kept the
// keyboard, so Space reopened it).
func TestPaperclipPicksInTheProject(t *testing.T) {
	e := newEnv(t, false)
	e.startApp()
	id := e.waitWindow("IsViewable")
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	e.sizeWindow(id, 1000, 760)
	e.waitRendered(id, "pick-before.png")

	ctx := context.Background()
	workspace := filepath.Join(e.home, "project")
	os.MkdirAll(workspace, 0o755)
	notes := filepath.Join(workspace, "notes-in-project.txt")
	os.WriteFile(notes, []byte("the project's notes\n"), 0o644)
	p := e.addProjectShown(t, id, workspace)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screenshot: %s", saveShot(e.screenshot(), "pick-failed.png"))
		}
	})

	// The paperclip (fixed layout at this width), then the file by its bare name.
	win := e.geometry(id)
	e.must("xdotool", "windowactivate", "--sync", id)
	e.must("xdotool", "mousemove", itoa(win.Min.X+911), itoa(win.Min.Y+699), "click", "1")
	e.titled("Attach files")
	time.Sleep(500 * time.Millisecond)
	// Ctrl+L: a location relative to the folder the chooser shows (typing
	// alone would search).
	e.must("xdotool", "key", "ctrl+l")
	time.Sleep(300 * time.Millisecond)
	e.must("xdotool", "type", "--delay", "30", filepath.Base(notes))
	time.Sleep(300 * time.Millisecond)
	t.Logf("chooser: %s", saveShot(e.screenshot(), "pick-dialog.png"))
	e.must("xdotool", "key", "Return")
	e.waitFor("the chooser to close", 15*time.Second, func() bool {
		out, _ := e.output("xdotool", "search", "--onlyvisible", "--name", "^Attach files$")
		return strings.TrimSpace(out) == ""
	})
	time.Sleep(500 * time.Millisecond)
	e.must("xdotool", "type", "--delay", "20", "summarise it")
	e.must("xdotool", "key", "Return")

	var user *service.MessageView
	e.waitFor("the message with the picked file", 30*time.Second, func() bool {
		var ss []run.Session
		if err := e.client().Call(ctx, "GET", "/api/sessions?project_id="+p.ID, nil, &ss); err != nil || len(ss) == 0 {
			return false
		}
		var sd service.SessionDetail
		if err := e.client().Call(ctx, "GET", "/api/sessions/"+ss[0].ID, nil, &sd); err != nil {
			return false
		}
		for i := range sd.Messages {
			if sd.Messages[i].Role == run.RoleUser {
				user = &sd.Messages[i]
				return true
			}
		}
		return false
	})
	if !reflect.DeepEqual(user.Attachments, []string{notes}) || !strings.Contains(user.Content, "summarise it") {
		t.Fatalf("the message: %q with %q", user.Content, user.Attachments)
	}
}
