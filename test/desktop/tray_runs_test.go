//go:build desktoptest

package desktop

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
	"github.com/hermesdesk/hermesdesk/testkit/trayhost"
)

// tooltip is the tray item's tooltip title.
func (e *env) tooltip(it trayhost.Item) string {
	v, err := e.host.Property(it, "ToolTip")
	if err != nil {
		return ""
	}
	if f, ok := v.Value().([]any); ok && len(f) > 2 {
		s, _ := f[2].(string)
		return s
	}
	return ""
}

func (e *env) waitTooltip(it trayhost.Item, want string) {
	e.t.Helper()
	e.waitFor("tooltip "+want, 30*time.Second, func() bool { return e.tooltip(it) == want })
}

// clickDeep clicks a submenu entry, asking again while the first,
// one-level layout is all the item has answered.
func (e *env) clickDeep(it trayhost.Item, label string) {
	e.t.Helper()
	e.waitFor("menu entry "+label, 15*time.Second, func() bool { return e.host.Click(it, label) == nil })
}

// ask starts `hermesdesk ask` with a demo scenario through the app's local API.
func (e *env) ask(scenario string) {
	e.t.Helper()
	project := filepath.Join(e.home, "project")
	os.MkdirAll(project, 0o755)
	cmd := exec.Command(e.bin, "ask", "--agent", "demo", "--project", project, "/scenario "+scenario+"\ngo")
	cmd.Env = e.environ
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if e.t.Failed() {
			e.t.Logf("ask %s output:\n%s", scenario, out.String())
		}
	})
}

// TestTrayFollowsRuns: the tray's icon state and menu follow the runs
// (idle → needs you → idle → running), and Quit with an active run asks:
// "keep" leaves it running for the next start, which shows it again;
// "stop" ends it with one done{cancelled}.
func TestTrayFollowsRuns(t *testing.T) {
	e := newEnv(t, true)
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	a := e.startApp("--background")
	it := e.waitItem()
	e.waitTooltip(it, "Hermes Desk — nothing running")

	e.ask("approval")
	e.waitTooltip(it, "Hermes Desk — 1 run needs you")
	e.waitFor("Status NeedsAttention", 15*time.Second, func() bool {
		v, err := e.host.Property(it, "Status")
		return err == nil && v.Value() == "NeedsAttention"
	})
	// fyne.io/systray answers the first GetLayout after a rebuild one
	// level deep (then signals LayoutUpdated), so a host asks again.
	e.waitFor("the run in the tray menu", 15*time.Second, func() bool {
		_, err := e.host.Find(it, func(m trayhost.MenuEntry) bool {
			return strings.Contains(m.Label, " — Demo agent (no AI) — needs approval — ") && len(m.Children) == 2 &&
				m.Children[0].Label == traystate.LabelOpenRun && m.Children[1].Label == traystate.LabelStopRun
		})
		return err == nil
	})
	c := e.client()
	var active []run.Run
	if err := c.Call(context.Background(), "GET", "/api/runs?status=active", nil, &active); err != nil || len(active) != 1 {
		t.Fatalf("active runs %+v %v", active, err)
	}
	var res run.ControlResult
	if err := c.Call(context.Background(), "POST", "/api/runs/"+active[0].ID+"/approvals/"+active[0].PendingApprovalID,
		map[string]string{"choice": "allow-once"}, &res); err != nil || !res.Accepted {
		t.Fatalf("approve: %+v %v", res, err)
	}
	e.waitTooltip(it, "Hermes Desk — nothing running")
	if v, err := e.host.Property(it, "Status"); err != nil || v.Value() != "Active" {
		t.Fatalf("Status %v %v after the approval, want Active", v, err)
	}

	// Quit, keeping a running run: the app exits, the run goes on, and
	// the next start shows it in the tray again.
	e.ask("slow")
	e.waitTooltip(it, "Hermes Desk — 1 run running")
	e.clickDeep(it, traystate.KeepLabel(1))
	if code := a.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d after Keep running", code)
	}
	a2 := e.startApp("--background")
	it2 := e.waitItem(it)
	e.waitTooltip(it2, "Hermes Desk — 1 run running")

	// Quit, stopping it.
	e.clickDeep(it2, traystate.StopLabel(1))
	if code := a2.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d after Stop and quit", code)
	}
	store, err := journal.Open(filepath.Join(e.dataDir, "hermesdesk.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	// The shims finish the cancel after the app has gone: wait for each
	// run's done.
	var runs []run.Run
	e.waitFor("every run to end", 30*time.Second, func() bool {
		runs, err = store.ListRuns(context.Background(), run.RunFilter{})
		if err != nil || len(runs) == 0 {
			return false
		}
		for _, r := range runs {
			if !r.Terminal {
				return false
			}
		}
		return true
	})
	for _, r := range runs {
		if r.Status == run.StatusCompleted {
			continue // the approved one
		}
		var dones []run.Done
		evs, _ := store.Events(context.Background(), r.ID, 0, 10000)
		for _, ev := range evs {
			if ev.Type == run.EventDone {
				var d run.Done
				json.Unmarshal(ev.Payload, &d)
				dones = append(dones, d)
			}
		}
		if r.Status != run.StatusCancelled || len(dones) != 1 || dones[0].Status != run.StatusCancelled {
			t.Fatalf("run %s after Stop and quit: %s, done events %+v", r.ID, r.Status, dones)
		}
	}
}

// TestSIGTERMKeepsRuns: logout or `kill` quits without asking and keeps
// the runs going, like "Keep running"; the next start shows them.
func TestSIGTERMKeepsRuns(t *testing.T) {
	e := newEnv(t, true)
	t.Cleanup(func() { runprocs.KillAll(e.dataDir) })
	a := e.startApp("--background")
	it := e.waitItem()
	// The tray comes up before the journal opens; the model's first view
	// says the backend is there.
	e.waitTooltip(it, "Hermes Desk — nothing running")
	e.ask("slow")
	e.waitTooltip(it, "Hermes Desk — 1 run running")
	if err := syscall.Kill(a.pid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := a.wait(30 * time.Second); code != 0 {
		t.Fatalf("exit code %d after SIGTERM", code)
	}
	e.startApp("--background")
	it2 := e.waitItem(it)
	e.waitTooltip(it2, "Hermes Desk — 1 run running")
}
