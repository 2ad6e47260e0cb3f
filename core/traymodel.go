package core

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
	"github.com/hermesdesk/hermesdesk/core/coreapi"
	"github.com/hermesdesk/hermesdesk/core/tray"
)

// The tray's content is backend/traystate's model of the runs (icon state,
// tooltip, run items needs-you first, Quit asking what to do with active
// runs); this file turns its View into the renderer's Menu and handles the
// clicks (docs/ARCHITECTURE.md §Tray).

// model returns the tray model, created on first use.
func (k *Core) model() *traystate.Model {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.trayModel == nil {
		k.trayModel = traystate.NewModel(k.setView)
	}
	return k.trayModel
}

// onWatch folds a watch bus message into the tray. A run that changed
// status (it started, ended, parked) may have brought new quota figures:
// the vendors' lines are read again (docs/ARCHITECTURE.md §Usage).
func (k *Core) onWatch(m run.WatchMessage) {
	k.model().Apply(m)
	if m.Type == run.WatchSnapshotType || m.Type == run.WatchRunChanged {
		k.refreshQuota()
	}
}

// quotaTimeout bounds reading the quota lines (one journal read).
const quotaTimeout = 10 * time.Second

// refreshQuota reads every vendor's quota line through the API and puts
// them in the tray, off the watch bus's goroutine; a change while one read
// runs is read again after it, once.
func (k *Core) refreshQuota() {
	k.quotaAgain.Store(true)
	if !k.quotaBusy.CompareAndSwap(false, true) {
		return // the running read reads again
	}
	go func() {
		for {
			for k.quotaAgain.Swap(false) {
				k.readQuota()
			}
			k.quotaBusy.Store(false)
			// One asked between the last read and letting go: read on.
			if !k.quotaAgain.Load() || !k.quotaBusy.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

func (k *Core) readQuota() {
	ctx, cancel := context.WithTimeout(context.Background(), quotaTimeout)
	defer cancel()
	h := k.api(ctx)
	if h == nil {
		return
	}
	status, body := h.DoContext(ctx, "GET", "/api/usage/quota", "")
	var res struct {
		Quota []struct {
			Line string `json:"line"`
		} `json:"quota"`
	}
	if status != 200 || json.Unmarshal([]byte(body), &res) != nil {
		k.log.Info("tray: quota lines not read", "status", status)
		return
	}
	lines := make([]string, 0, len(res.Quota))
	for _, q := range res.Quota {
		lines = append(lines, q.Line)
	}
	k.model().SetQuota(lines)
}

func (k *Core) setView(v traystate.View) {
	k.mu.Lock()
	k.view = &v
	k.running = v.Running
	k.mu.Unlock()
	k.refreshTray()
}

// menuOf renders a view; the checkbox shows the login entry on disk.
func menuOf(v traystate.View, autostart, autostartSupported bool) tray.Menu {
	return tray.Menu{Icon: string(v.Icon), Tooltip: v.Tooltip, NeedsAttention: v.Icon == traystate.IconNeedsYou,
		Items: itemsOf(v.Items, autostart, autostartSupported)}
}

func itemsOf(in []traystate.Item, autostart, supported bool) []tray.Item {
	var out []tray.Item
	for _, it := range in {
		t := tray.Item{Label: it.Label, Tooltip: it.Tooltip, Separator: it.Separator, Checkbox: it.Checkbox, Checked: it.Checked}
		switch it.Action {
		case traystate.ActionOpen:
			t.ID = tray.IDOpen
		case traystate.ActionAutostart:
			if !supported {
				continue
			}
			t.ID, t.Checked, t.Destructive = tray.IDAutostart, autostart, true
		case traystate.ActionQuit:
			t.ID, t.Destructive = tray.IDQuit, true
		case traystate.ActionOpenSession:
			t.ID = string(it.Action) + ":" + it.SessionID
		case traystate.ActionStopRun:
			t.ID, t.Destructive = string(it.Action)+":"+it.RunID, true
		case traystate.ActionQuitKeep, traystate.ActionQuitStop:
			t.ID, t.Destructive = string(it.Action), true
		case traystate.ActionNone:
			t.Disabled = len(it.Children) == 0 && !it.Separator
		default:
			t.ID = string(it.Action)
		}
		t.Children = itemsOf(it.Children, autostart, supported)
		out = append(out, t)
	}
	return out
}

// stopTimeout bounds stopping runs from the tray; each cancel is one
// control round trip to the run's shim.
const stopTimeout = 30 * time.Second

// onTrayAction handles the model's items: a run's Open session and Stop
// run, New session…, and the two ways to quit with active runs.
func (k *Core) onTrayAction(id string) {
	action, arg, _ := strings.Cut(id, ":")
	switch traystate.Action(action) {
	case traystate.ActionOpenSession:
		k.windows.show(coreapi.Launch{Session: arg})
	case traystate.ActionNewSession:
		k.windows.show(coreapi.Launch{NewSession: true})
	case traystate.ActionStopRun:
		k.cancelRun(arg)
	case traystate.ActionQuitKeep:
		k.quitWithRuns("the tray", false)
	case traystate.ActionQuitStop:
		k.quitWithRuns("the tray", true)
	default:
		k.log.Info("tray item not known to this build", "id", id)
	}
}

// quitWithRuns is what every Quit door does once the person chose — the
// tray's Quit submenu and the window's Settings → Quit ask the same
// question (docs/ARCHITECTURE.md §Quit with active runs): keep the active
// runs going in their shims, or stop each through the API, then quit.
func (k *Core) quitWithRuns(door string, stop bool) {
	active := traystate.Local(k.model().Active()) // another host's runs are not this quit's
	if !stop {
		k.log.Info("quit; active runs keep running in their shims", "from", door, "runs", len(active))
		k.quit()
		return
	}
	k.log.Info("quit; stopping the active runs", "from", door, "runs", len(active))
	cancel := k.cancelRun
	if k.stopRun != nil {
		cancel = k.stopRun
	}
	for _, r := range active {
		cancel(r.RunID)
	}
	k.quit()
}

// cancelRun stops a run through the API, as the window's Stop does.
func (k *Core) cancelRun(runID string) {
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	h := k.api(ctx)
	if h == nil {
		k.log.Warn("stop from the tray: the backend is not open", "run", runID)
		return
	}
	if status, body := h.DoContext(ctx, "POST", "/api/runs/"+url.PathEscape(runID)+"/cancel", ""); status >= 300 {
		k.log.Warn("stop from the tray", "run", runID, "status", status, "body", body)
	}
}
