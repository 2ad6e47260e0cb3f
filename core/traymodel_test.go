package core

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
	"github.com/hermesdesk/hermesdesk/core/tray"
)

// TestMenuOf: the model's view becomes the renderer's menu with ids the
// click handler understands, and the checkbox shows the entry on disk.
func TestMenuOf(t *testing.T) {
	v := traystate.Render([]run.RunState{{RunID: "r1", SessionID: "s1", Agent: "demo", Status: run.StatusRunning}}, traystate.Options{})
	m := menuOf(v, true, true)
	if m.Icon != "running" || m.Tooltip != "Hermes Desk — 1 run running" {
		t.Fatalf("menu %+v", m)
	}
	ids := map[string]tray.Item{}
	var walk func([]tray.Item)
	walk = func(items []tray.Item) {
		for _, it := range items {
			ids[it.Label] = it
			walk(it.Children)
		}
	}
	walk(m.Items)
	for label, want := range map[string]string{
		traystate.LabelOpenRun: "open-session:s1", traystate.LabelStopRun: "stop-run:r1",
		traystate.LabelNewSession: "new-session", traystate.LabelOpen: tray.IDOpen, traystate.LabelAutostart: tray.IDAutostart,
		traystate.KeepLabel(1): "quit-keep", traystate.StopLabel(1): "quit-stop",
	} {
		if ids[label].ID != want {
			t.Errorf("%s: id %q, want %q", label, ids[label].ID, want)
		}
	}
	for _, label := range []string{traystate.LabelStopRun, traystate.LabelAutostart, traystate.KeepLabel(1), traystate.StopLabel(1)} {
		if !ids[label].Destructive {
			t.Errorf("%s must act only on the menu shown", label)
		}
	}
	if ids[traystate.LabelOpenRun].Destructive || ids[traystate.LabelNewSession].Destructive {
		t.Error("opening a window is not destructive")
	}
	if !ids[traystate.LabelAutostart].Checked {
		t.Error("the checkbox should show the entry on disk")
	}
	if ids[traystate.LabelQuit].ID != "" || len(ids[traystate.LabelQuit].Children) != 2 {
		t.Errorf("quit with an active run should be a submenu: %+v", ids[traystate.LabelQuit])
	}
	if m.NeedsAttention {
		t.Error("a running run does not need the person")
	}
	waiting := traystate.Render([]run.RunState{{RunID: "r1", SessionID: "s1", Agent: "demo", Status: run.StatusAwaitingApproval,
		Pending: &run.PendingPrompt{Kind: run.PendingApproval, ID: "a1", Title: "Run ls"}}}, traystate.Options{})
	if !menuOf(waiting, false, false).NeedsAttention {
		t.Error("a run awaiting approval: the tray's status should say it needs attention")
	}
	idle := menuOf(traystate.Render(nil, traystate.Options{}), false, false)
	for _, it := range idle.Items {
		if it.ID == tray.IDAutostart {
			t.Error("no Start at login where it is unsupported")
		}
		if it.Label == traystate.LabelQuit && it.ID != tray.IDQuit {
			t.Errorf("idle quit %+v", it)
		}
	}
}
