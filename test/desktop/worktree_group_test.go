//go:build desktoptest

package desktop

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// TestWorktreeGroupOneLine: in the desktop window (WebKitGTK) a sidebar
// group's chip keeps Archive and Review on its own line, the long branch
// ellipsised, rather than pushing them onto a line of their own (seen in
// the window; docs/ARCHITECTURE.md §Workspaces). The sidebar of a project
// with one worktree session then reads, top to bottom, as four lines of
// drawn pixels: the project, the chip with its buttons, "Today", the
// session — five when the buttons wrap.
func TestWorktreeGroupOneLine(t *testing.T) {
	e := newEnv(t, false)
	e.startApp()
	id := e.waitWindow("IsViewable")
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	e.sizeWindow(id, 1280, 800)
	e.waitRendered(id, "wsgroup-shown.png")

	p := e.gitProjectShown(t, id)
	c, ctx := e.client(), context.Background()
	var s run.Session
	if err := c.Call(ctx, "POST", "/api/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo", Title: "Tidy", Workspace: "worktree"}, &s); err != nil {
		t.Fatal(err)
	}
	var ws []run.Workspace
	if err := c.Call(ctx, "GET", "/api/projects/"+p.ID+"/workspaces", nil, &ws); err != nil || len(ws) != 1 {
		t.Fatalf("workspaces %+v: %v", ws, err)
	}
	// A changed file: the chip says "1 changed" beside the branch, as wide
	// as a worktree's chip gets.
	if err := os.WriteFile(filepath.Join(ws[0].Path, "notes.txt"), []byte("a note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var r run.StartResult
	if err := c.Call(ctx, "POST", "/api/runs", run.StartRequest{SessionID: s.ID, Message: "hello", ClientRequestID: fmt.Sprint(time.Now().UnixNano())}, &r); err != nil {
		t.Fatal(err)
	}
	e.waitRunDone(r.RunID, 60*time.Second)

	g := e.geometry(id)
	e.must("xdotool", "mousemove", fmt.Sprint(g.Min.X+700), fmt.Sprint(g.Min.Y+400)) // no hover in the sidebar
	side := image.Rect(g.Min.X+24, g.Min.Y+85, g.Min.X+252, g.Min.Y+600)
	var lines []image.Rectangle
	e.waitFor("the sidebar's group with its chip's figures", 20*time.Second, func() bool {
		img := e.screenshot()
		lines = drawnLines(img, side)
		t.Logf("sidebar lines %v: %s", lines, saveShot(crop(img, image.Rect(g.Min.X, g.Min.Y, g.Min.X+264, g.Min.Y+600)), "window-wsgroup-sidebar.png"))
		return len(lines) >= 4
	})
	time.Sleep(time.Second) // the chip's figures have come: nothing moves after
	lines = drawnLines(e.screenshot(), side)
	if len(lines) != 4 {
		t.Errorf("the sidebar draws %d lines %v, want 4 (project, chip with Archive and Review, Today, the session): the chip's buttons wrapped", len(lines), lines)
	}
}

// drawnLines are the runs of pixel rows in r that differ from r's
// background, each as the rectangle it spans.
func drawnLines(img image.Image, r image.Rectangle) []image.Rectangle {
	bg := background(img, r)
	var out []image.Rectangle
	start := -1
	for y := r.Min.Y; y <= r.Max.Y; y++ {
		drawn := false
		for x := r.Min.X; x < r.Max.X && y < r.Max.Y; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if abs(float64(cr>>8)-bg[0])+abs(float64(cg>>8)-bg[1])+abs(float64(cb>>8)-bg[2]) > 30 {
				drawn = true
				break
			}
		}
		switch {
		case drawn && start < 0:
			start = y
		case !drawn && start >= 0:
			out = append(out, image.Rect(r.Min.X, start, r.Max.X, y))
			start = -1
		}
	}
	return out
}
