//go:build desktoptest

package desktop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/core/coreapi"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// The lifecycle of the two processes (docs/ARCHITECTURE.md §Processes):
// the resident core and the window process that comes and goes.

// withGrace shortens the hidden window's grace period.
func (e *env) withGrace(d time.Duration) {
	e.environ = append(e.environ, "HERMESDESK_WINDOW_GRACE="+d.String())
}

// client is the data dir's API over its local socket: one per env, so
// polling it keeps one connection (a client per call left the core one
// idle connection per poll, which a memory figure then counted).
func (e *env) client() *httpapi.Client {
	if e.api == nil {
		for _, kv := range e.environ {
			if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
				e.t.Setenv("XDG_RUNTIME_DIR", v) // the sockets live there
			}
		}
		e.api = httpapi.NewLocalClient(httpapi.SocketPath(e.dataDir))
	}
	return e.api
}

func (e *env) coreInfo() (coreapi.Info, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	e.client() // sets XDG_RUNTIME_DIR
	return coreapi.NewClient(coreapi.SocketPath(e.dataDir)).Info(ctx)
}

// startRun starts a demo-agent run of scenario through the API.
func (e *env) startRun(scenario string) run.StartResult {
	e.t.Helper()
	c := e.client()
	ctx := context.Background()
	project := filepath.Join(e.home, "project")
	os.MkdirAll(project, 0o755)
	var p run.Project
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: project}, &p); err != nil {
		e.t.Fatal(err)
	}
	var s run.Session
	if err := c.Call(ctx, "POST", "/api/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"}, &s); err != nil {
		e.t.Fatal(err)
	}
	var r run.StartResult
	req := run.StartRequest{SessionID: s.ID, Message: "/scenario " + scenario + "\ngo", ClientRequestID: fmt.Sprint(time.Now().UnixNano())}
	if err := c.Call(ctx, "POST", "/api/runs", req, &r); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	return r
}

// events reads a run's whole journal.
func (e *env) events(runID string) []run.Event {
	e.t.Helper()
	var all []run.Event
	after := int64(0)
	for {
		var page service.EventPage
		path := fmt.Sprintf("/api/runs/%s/events?after=%d&limit=500", runID, after)
		if err := e.client().Call(context.Background(), "GET", path, nil, &page); err != nil {
			e.t.Fatal(err)
		}
		all = append(all, page.Events...)
		if len(page.Events) == 0 || !page.More {
			return all
		}
		after = page.Events[len(page.Events)-1].Seq
	}
}

// waitRunDone waits for the run's terminal event.
func (e *env) waitRunDone(runID string, timeout time.Duration) {
	e.t.Helper()
	e.waitFor("run "+runID+" to finish", timeout, func() bool {
		var r run.Run
		if err := e.client().Call(context.Background(), "GET", "/api/runs/"+runID, nil, &r); err != nil {
			return false
		}
		return r.Status.Terminal()
	})
}

// checkSlowRun: the "slow" scenario's run finished once, normally, with
// every word streamed exactly once and seqs contiguous.
func (e *env) checkSlowRun(runID string) {
	e.t.Helper()
	evs := e.events(runID)
	var text strings.Builder
	dones := 0
	for i, ev := range evs {
		if ev.Seq != int64(i+1) {
			e.t.Fatalf("event %d has seq %d: a gap or a duplicate", i, ev.Seq)
		}
		switch ev.Type {
		case run.EventTokenDelta:
			var p struct {
				Text string `json:"text"`
			}
			json.Unmarshal(ev.Payload, &p)
			text.WriteString(p.Text)
		case "done":
			dones++
			if !strings.Contains(string(ev.Payload), "completed") {
				e.t.Errorf("done = %s", ev.Payload)
			}
		}
	}
	if dones != 1 {
		e.t.Fatalf("%d done events", dones)
	}
	seen := map[string]bool{}
	for _, w := range strings.Fields(text.String()) {
		if strings.HasPrefix(w, "word") {
			if seen[w] {
				e.t.Fatalf("%s streamed twice", w)
			}
			seen[w] = true
		}
	}
	if len(seen) != 100 {
		e.t.Fatalf("%d of the 100 words streamed:\n%s", len(seen), text.String())
	}
}

// TestProcessesMapNoToolkit: the core, a shim and the demo agent map no
// GTK or WebKit; the window does (so the check can tell).
func TestProcessesMapNoToolkit(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()
	e.waitWindow("IsViewable")
	r := e.startRun("demo")
	e.waitRunDone(r.RunID, 60*time.Second)
	var w control.Warm
	e.waitFor("the warm shim", 15*time.Second, func() bool {
		recs, _ := filepath.Glob(filepath.Join(e.dataDir, control.WarmDirName, "*.json"))
		if len(recs) != 1 {
			return false
		}
		var err error
		w, err = control.ReadWarm(e.dataDir, strings.TrimSuffix(filepath.Base(recs[0]), ".json"))
		return err == nil && w.Pid > 0 && w.AgentPid > 0
	})
	for _, p := range []struct {
		name string
		pid  int
		gui  bool
	}{{"core", a.pid(), false}, {"shim", w.Pid, false}, {"demo agent", w.AgentPid, false}, {"window", e.windowProc(), true}} {
		got, err := mapsGUI(p.pid)
		if err != nil {
			t.Fatalf("%s %d: %v", p.name, p.pid, err)
		}
		if got != p.gui {
			t.Errorf("%s (pid %d, %s) maps GTK/WebKit: %v, want %v", p.name, p.pid, cmdline(p.pid), got, p.gui)
		}
	}
}

// TestWindowGraceAndColdReopen: a hidden window's process exits after its
// grace period; the core and tray stay; tray Open starts a new window.
func TestWindowGraceAndColdReopen(t *testing.T) {
	e := newEnv(t, true)
	e.withGrace(time.Second)
	a := e.startApp()
	id := e.waitWindow("IsViewable")
	e.waitRendered(id, "grace-first.png")
	it := e.waitItem()
	win := e.windowProc()

	e.closeWindow(id)
	e.waitWindow("IsUnMapped")
	e.waitFor("the hidden window's process to exit after its grace", 30*time.Second, func() bool { return processGone(win) })
	if !a.alive() {
		t.Fatal("core exited with its window")
	}
	if _, ok := e.window(windowTitle); ok {
		t.Fatal("a window is still there")
	}

	e.click(it, labelOpen)
	id = e.waitWindow("IsViewable")
	e.waitRendered(id, "grace-reopened.png")
	if w := e.windowProc(); w == 0 || w == win {
		t.Fatalf("no new window process (had %d, now %d)", win, w)
	}
}

// TestCoreKilledWhileStreaming: kill -9 of the core with the window open
// and a run streaming. The window starts a new core, which re-adopts the
// shim; the run completes once, with nothing lost or doubled.
func TestCoreKilledWhileStreaming(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()
	e.waitWindow("IsViewable")
	win := e.windowProc()
	r := e.startRun("slow")
	e.waitFor("the run to stream", 30*time.Second, func() bool { return len(e.events(r.RunID)) > 10 })

	syscall.Kill(a.pid(), syscall.SIGKILL)
	a.wait(15 * time.Second)
	e.waitFor("a new core started by the window", 30*time.Second, func() bool {
		info, err := e.coreInfo()
		return err == nil && info.Pid != a.pid()
	})
	e.waitFor("the window to reattach", 30*time.Second, func() bool { return strings.Count(e.log(), `msg="window attached"`) >= 2 })
	if w := e.windowProc(); w != win {
		t.Fatalf("window process changed: %d → %d", win, w)
	}
	e.waitWindow("IsViewable")
	e.waitRunDone(r.RunID, 90*time.Second)
	e.checkSlowRun(r.RunID)
	if n := len(e.coreProcs()); n != 1 {
		t.Fatalf("%d cores running", n)
	}
}

// TestWindowKilled: kill -9 of the window leaves the core and its runs
// alone; tray Open brings a new window.
func TestWindowKilled(t *testing.T) {
	e := newEnv(t, true)
	a := e.startApp()
	e.waitWindow("IsViewable")
	it := e.waitItem()
	win := e.windowProc()
	r := e.startRun("slow")
	e.waitFor("the run to stream", 30*time.Second, func() bool { return len(e.events(r.RunID)) > 5 })

	syscall.Kill(win, syscall.SIGKILL)
	e.waitFor("the window process to go", 15*time.Second, func() bool { return processGone(win) })
	n := len(e.events(r.RunID))
	e.waitFor("the run to go on", 15*time.Second, func() bool { return len(e.events(r.RunID)) > n })
	if !a.alive() {
		t.Fatal("core died with its window")
	}
	e.click(it, labelOpen)
	e.waitWindow("IsViewable")
	e.waitRunDone(r.RunID, 90*time.Second)
	e.checkSlowRun(r.RunID)
}

// TestUpgradeHandover: a launch of a newer build while the old core runs a
// streaming run: the old core steps down, the new one adopts the shim and
// the window, and the run loses nothing.
func TestUpgradeHandover(t *testing.T) {
	e := newEnv(t, true)
	newDir := t.TempDir()
	build := exec.Command("go", "build", "-tags", "sqlite_fts5,webkit2_41",
		"-ldflags", "-X github.com/hermesdesk/hermesdesk/backend/version.Version=99.0.0", "-o", filepath.Join(newDir, "hermesdesk"), "../..")
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the newer core: %v\n%s", err, out)
	}
	os.Symlink(filepath.Join(filepath.Dir(e.bin), "hermesdesk-window"), filepath.Join(newDir, "hermesdesk-window"))

	old := e.startApp()
	e.waitWindow("IsViewable")
	win := e.windowProc()
	// A finished run in another session leaves its agent warm; the newer
	// core adopts it rather than the old one closing it on the way out.
	quick := e.startRun("thinking")
	e.waitRunDone(quick.RunID, 60*time.Second)
	var warmPid int
	e.waitFor("a warm agent", 30*time.Second, func() bool {
		w, err := control.ReadWarm(e.dataDir, quick.SessionID)
		warmPid = w.Pid
		return err == nil && w.Pid > 0
	})
	r := e.startRun("slow")
	e.waitFor("the run to stream", 30*time.Second, func() bool { return len(e.events(r.RunID)) > 10 })

	e.bin = filepath.Join(newDir, "hermesdesk")
	next := e.startApp()
	if code := old.wait(30 * time.Second); code != 0 {
		t.Fatalf("old core exited with %d", code)
	}
	e.waitFor("the newer core", 30*time.Second, func() bool {
		info, err := e.coreInfo()
		return err == nil && info.Version == "99.0.0" && info.Pid == next.pid()
	})
	e.waitFor("the window to reattach", 30*time.Second, func() bool { return strings.Count(e.log(), `msg="window attached"`) >= 2 })
	if w := e.windowProc(); w != win {
		t.Fatalf("window process changed over the handover: %d → %d", win, w)
	}
	e.waitWindow("IsViewable")
	e.waitRunDone(r.RunID, 90*time.Second)
	e.checkSlowRun(r.RunID)
	if !runprocs.Alive(warmPid) {
		t.Fatal("the old core closed the idle warm agent on the way out of a handover")
	}
	if w, err := control.ReadWarm(e.dataDir, quick.SessionID); err != nil || w.Pid != warmPid {
		t.Fatalf("warm record after the handover: %+v, %v", w, err)
	}
}
