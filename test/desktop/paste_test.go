//go:build desktoptest

package desktop

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// TestPasteImageAttaches: an image copied by an application that offers
// the clipboard only as image/png (a screenshot tool; here xclip) and
// pasted with Ctrl+V in the message box becomes an attachment, and the
// agent receives that very PNG (issue: WebKitGTK shows the page only the
// clipboard's text, so the paste attached nothing).
func TestPasteImageAttaches(t *testing.T) {
	if _, err := exec.LookPath("xclip"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("xclip is required in CI (scripts/deps.sh test)")
		}
		t.Skip("no xclip to own the clipboard")
	}
	e := newEnv(t, false)
	e.startApp()
	id := e.waitWindow("IsViewable")
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	e.sizeWindow(id, 1000, 760)
	e.waitRendered(id, "paste-before.png")

	ctx := context.Background()
	workspace := filepath.Join(e.home, "project")
	os.MkdirAll(workspace, 0o755)
	p := e.addProjectShown(t, id, workspace)

	// The clipboard: one PNG, offered as image/png and nothing else.
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	img.Set(0, 0, color.RGBA{255, 0, 255, 255})
	var shot bytes.Buffer
	if err := png.Encode(&shot, img); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "shot.png")
	os.WriteFile(file, shot.Bytes(), 0o644)
	owner := exec.Command("xclip", "-selection", "clipboard", "-t", "image/png", "-i", file)
	owner.Env = e.environ
	// xclip forks and keeps owning the clipboard (until Xvfb goes); no
	// pipes, or waiting for it would wait for the forked owner.
	if err := owner.Run(); err != nil {
		t.Fatalf("xclip: %v", err)
	}
	if out, err := e.output("xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"); err != nil || strings.Contains(out, "STRING") {
		t.Fatalf("the clipboard offers text too (%v): %s", err, out)
	}

	// Into the message box, paste, say something and send.
	app := e.geometry(id)
	e.must("xdotool", "windowactivate", "--sync", id)
	e.must("xdotool", "mousemove", itoa(app.Min.X+app.Dx()*2/3), itoa(app.Max.Y-60), "click", "1")
	e.must("xdotool", "key", "ctrl+v")
	e.must("xdotool", "type", "--delay", "20", "what is in this picture?")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screenshot: %s", saveShot(crop(e.screenshot(), e.geometry(id)), "window-paste-failed.png"))
		}
	})
	e.waitFor("the pasted image's chip", 20*time.Second, func() bool { return strings.Contains(e.log(), "pasted an image from the clipboard") })
	time.Sleep(time.Second) // its upload answers and the chip becomes a path
	t.Logf("pasted: %s", saveShot(crop(e.screenshot(), e.geometry(id)), "window-paste-chip.png"))
	e.must("xdotool", "key", "Return")

	var user, answer *service.MessageView
	e.waitFor("the message with the pasted image", 60*time.Second, func() bool {
		var ss []run.Session
		if err := e.client().Call(ctx, "GET", "/api/sessions?project_id="+p.ID, nil, &ss); err != nil || len(ss) == 0 {
			return false
		}
		var sd service.SessionDetail
		if err := e.client().Call(ctx, "GET", "/api/sessions/"+ss[0].ID, nil, &sd); err != nil {
			return false
		}
		user, answer = nil, nil
		for i := range sd.Messages {
			switch m := &sd.Messages[i]; m.Role {
			case run.RoleUser:
				user = m
			case run.RoleAssistant:
				if m.Run != nil && m.Run.Status.Terminal() {
					answer = m
				}
			}
		}
		return answer != nil
	})
	if len(user.Attachments) != 1 || !regexp.MustCompile(`/pasted-[0-9-]+\.png$`).MatchString(user.Attachments[0]) {
		t.Fatalf("the message's attachments: %q", user.Attachments)
	}
	if got, err := os.ReadFile(user.Attachments[0]); err != nil || !bytes.Equal(got, shot.Bytes()) {
		t.Fatalf("the attached file is not the copied PNG (%v, %d bytes, want %d)", err, len(got), shot.Len())
	}
	if !strings.Contains(user.Content, "what is in this picture?") {
		t.Fatalf("the message text: %q", user.Content)
	}
	if !strings.Contains(answer.Content, filepath.Base(user.Attachments[0])) {
		t.Fatalf("the demo agent did not receive the pasted image: %q", answer.Content)
	}
}
