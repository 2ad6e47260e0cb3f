// Package tray is the core's tray icon and menu, in-process (fyne.io/systray:
// on Linux it speaks StatusNotifierItem and dbusmenu over D-Bus, no GTK).
// The renderer shows whatever Menu it is given; what the menu says is a
// pure function of the app's state (MenuFunc), so a richer model (run
// items, needs-you, icon states) plugs in without touching the renderer.
// See docs/ARCHITECTURE.md §Processes.
package tray

import "fmt"

// Item is one menu entry. An empty ID with Separator set is a separator.
type Item struct {
	ID        string // what a click reports; "" for separators and headers
	Label     string
	Tooltip   string
	Checkbox  bool
	Checked   bool
	Disabled  bool
	Separator bool
	// Destructive items (stop a run, quit, Start at login) act only when
	// clicked on the menu currently shown, never on a replaced one.
	Destructive bool
	Children    []Item // a submenu
}

// Menu is everything the tray shows.
type Menu struct {
	Icon    string // a name the renderer's icon set knows ("idle", "running", …)
	Tooltip string
	// NeedsAttention: a run waits for the person. On Linux the item's
	// StatusNotifierItem Status is NeedsAttention, else Active.
	NeedsAttention bool
	Items          []Item
}

// Item IDs the core acts on.
const (
	IDOpen      = "open"
	IDAutostart = "autostart"
	IDQuit      = "quit"
)

// Labels; the desktop test clicks them by label.
const (
	LabelOpen      = "Open Hermes Desk"
	LabelAutostart = "Start at login"
	LabelQuit      = "Quit"
	Title          = "Hermes Desk"
)

// State is what the core knows for the menu.
type State struct {
	Running            int  // active runs
	Autostart          bool // the login entry exists
	AutostartSupported bool
}

// MenuFunc turns the state into the menu.
type MenuFunc func(State) Menu

// DefaultMenu is Open, Start at login, Quit, with the running count in
// the tooltip.
func DefaultMenu(s State) Menu {
	tip, icon := Title, "idle"
	if s.Running > 0 {
		tip, icon = fmt.Sprintf("%s — %d running", Title, s.Running), "running"
	}
	items := []Item{{ID: IDOpen, Label: LabelOpen, Tooltip: "Show the Hermes Desk window"}}
	if s.AutostartSupported {
		items = append(items, Item{ID: IDAutostart, Label: LabelAutostart, Tooltip: "Start Hermes Desk hidden when you log in",
			Checkbox: true, Checked: s.Autostart, Destructive: true})
	}
	items = append(items, Item{Separator: true}, Item{ID: IDQuit, Label: LabelQuit, Tooltip: "Quit Hermes Desk", Destructive: true})
	return Menu{Icon: icon, Tooltip: tip, Items: items}
}
