//go:build desktoptest

package desktop

import (
	"context"
	"fmt"
	"image"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// TestWorktreeChipAt720: in the desktop window (WebKitGTK) at 720 px, a
// session working in a worktree shows the worktree chip in its header and
// the header's controls stay in the window: the chip gives way, nothing is
// pushed past the right edge (issue 25; docs/ARCHITECTURE.md §Workspaces).
// Two sessions of one project, one in the folder, one in a new worktree,
// are opened in turn (Ctrl+K): the worktree's header carries more drawn
// pixels (the chip), and both keep the inspector's switch at the right edge.
func TestWorktreeChipAt720(t *testing.T) {
	e := newEnv(t, false)
	e.startApp()
	id := e.waitWindow("IsViewable")
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	e.sizeWindow(id, 1000, 760)
	e.waitRendered(id, "wschip-shown.png")

	p := e.gitProjectShown(t, id)
	c, ctx := e.client(), context.Background()
	start := func(title, workspace string) run.Session {
		var s run.Session
		if err := c.Call(ctx, "POST", "/api/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo", Title: title, Workspace: workspace}, &s); err != nil {
			t.Fatal(err)
		}
		var r run.StartResult
		if err := c.Call(ctx, "POST", "/api/runs", run.StartRequest{SessionID: s.ID, Message: "hello", ClientRequestID: fmt.Sprint(time.Now().UnixNano())}, &r); err != nil {
			t.Fatal(err)
		}
		e.waitRunDone(r.RunID, 60*time.Second)
		return s
	}
	start("Session in folder", "checkout")
	if s := start("Session in a tree", "worktree"); s.WorkspaceID == "" {
		t.Fatalf("the session has no workspace: %+v", s)
	}

	e.sizeWindow(id, 720, 600)
	header := func(title, shot string) image.Image {
		e.must("xdotool", "windowactivate", "--sync", id)
		e.must("xdotool", "key", "ctrl+k")
		time.Sleep(time.Second)
		e.must("xdotool", "type", "--delay", "20", title)
		time.Sleep(500 * time.Millisecond)
		e.must("xdotool", "key", "Return")
		time.Sleep(3 * time.Second) // its page and the chip's figures paint
		win := e.geometry(id)
		img := crop(e.screenshot(), image.Rect(win.Min.X, win.Min.Y, win.Max.X, win.Min.Y+100))
		t.Logf("header: %s", saveShot(img, shot))
		return img
	}
	folder := header("Session in folder", "window-wschip-folder-720.png")
	tree := header("Session in a tree", "window-wschip-worktree-720.png")
	drawn := func(img image.Image, r image.Rectangle) int {
		bg := background(img, img.Bounds())
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				cr, cg, cb, _ := img.At(x, y).RGBA()
				if abs(float64(cr>>8)-bg[0])+abs(float64(cg>>8)-bg[1])+abs(float64(cb>>8)-bg[2]) > 60 {
					n++
				}
			}
		}
		return n
	}
	// Only the header counts: down to its bottom border, a row of one colour
	// across the window (the transcript under it differs between the two).
	head := func(img image.Image) image.Rectangle {
		b := img.Bounds()
		bg := background(img, b)
		for y := b.Min.Y + 20; y < b.Max.Y; y++ {
			line := background(img, image.Rect(b.Min.X+40, y, b.Max.X-10, y+1))
			same := 0
			for x := b.Min.X + 40; x < b.Max.X-10; x++ {
				cr, cg, cb, _ := img.At(x, y).RGBA()
				if abs(float64(cr>>8)-line[0])+abs(float64(cg>>8)-line[1])+abs(float64(cb>>8)-line[2]) < 3 {
					same++
				}
			}
			if abs(line[0]-bg[0])+abs(line[1]-bg[1])+abs(line[2]-bg[2]) > 6 && same > (b.Dx()-50)*9/10 {
				return image.Rect(b.Min.X, b.Min.Y, b.Max.X, y)
			}
		}
		t.Fatalf("no header border found (screenshots above)")
		return b
	}
	hf, ht := head(folder), head(tree)
	edge := func(r image.Rectangle) image.Rectangle { return image.Rect(r.Max.X-48, r.Min.Y, r.Max.X-4, r.Max.Y) }
	nf, nt := drawn(folder, hf), drawn(tree, ht)
	ef, et := drawn(folder, edge(hf)), drawn(tree, edge(ht))
	t.Logf("header heights: folder %d px, worktree %d px; drawn pixels: folder %d, worktree %d; at the right edge: folder %d, worktree %d", hf.Dy(), ht.Dy(), nf, nt, ef, et)
	if nt < nf+300 {
		t.Errorf("the worktree session's header draws %d pixels, the folder session's %d: no chip shown", nt, nf)
	}
	if ef < 20 || et < 20 {
		t.Errorf("the header's right edge is empty (folder %d, worktree %d drawn pixels): its controls were pushed out", ef, et)
	}
}
