package trayhost

import (
	"context"
	"fmt"
	"time"

	"github.com/godbus/dbus/v5"
)

// MenuEntry is one item of an item's dbusmenu.
type MenuEntry struct {
	ID      int32
	Label   string
	Toggle  string // "checkmark", "radio" or ""
	Checked bool
	Type    string // "separator" or "" (standard)
	// Children are a submenu's entries (the tray's run items and its Quit
	// when runs are active).
	Children []MenuEntry
}

// layout is the dbusmenu (ia{sv}av) structure.
type layout struct {
	ID       int32
	Props    map[string]dbus.Variant
	Children []dbus.Variant
}

// Menu reads the item's menu, submenus included.
func (h *Host) Menu(it Item) ([]MenuEntry, error) {
	menuPath, err := h.menuPath(it)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), callDeadline)
	defer cancel()
	var rev uint32
	var root layout
	call := h.conn.Object(it.Service, menuPath).CallWithContext(ctx, menuIface+".GetLayout", 0, int32(0), int32(-1), []string{})
	if err := call.Store(&rev, &root); err != nil {
		return nil, fmt.Errorf("trayhost: GetLayout: %w", err)
	}
	return entries(root.Children)
}

func entries(children []dbus.Variant) ([]MenuEntry, error) {
	var out []MenuEntry
	for _, c := range children {
		var l layout
		if err := dbus.Store([]any{c.Value()}, &l); err != nil {
			return nil, fmt.Errorf("trayhost: menu child: %w", err)
		}
		e := MenuEntry{ID: l.ID}
		str(l.Props, "label", &e.Label)
		str(l.Props, "toggle-type", &e.Toggle)
		str(l.Props, "type", &e.Type)
		if v, ok := l.Props["toggle-state"]; ok {
			if n, ok := v.Value().(int32); ok {
				e.Checked = n == 1
			}
		}
		if v, ok := l.Props["visible"]; ok {
			if b, ok := v.Value().(bool); ok && !b {
				continue
			}
		}
		kids, err := entries(l.Children)
		if err != nil {
			return nil, err
		}
		e.Children = kids
		out = append(out, e)
	}
	return out, nil
}

func str(props map[string]dbus.Variant, key string, dst *string) {
	if v, ok := props[key]; ok {
		if s, ok := v.Value().(string); ok {
			*dst = s
		}
	}
}

// Entry finds the menu entry with this label, in submenus too.
func (h *Host) Entry(it Item, label string) (MenuEntry, error) {
	all, err := h.Menu(it)
	if err != nil {
		return MenuEntry{}, err
	}
	if e, ok := find(all, func(e MenuEntry) bool { return e.Label == label }); ok {
		return e, nil
	}
	return MenuEntry{}, fmt.Errorf("trayhost: no menu entry %q in %+v", label, all)
}

// Find returns the first entry, depth first, for which match holds.
func (h *Host) Find(it Item, match func(MenuEntry) bool) (MenuEntry, error) {
	all, err := h.Menu(it)
	if err != nil {
		return MenuEntry{}, err
	}
	if e, ok := find(all, match); ok {
		return e, nil
	}
	return MenuEntry{}, fmt.Errorf("trayhost: no matching menu entry in %+v", all)
}

func find(es []MenuEntry, match func(MenuEntry) bool) (MenuEntry, bool) {
	for _, e := range es {
		if match(e) {
			return e, true
		}
		if c, ok := find(e.Children, match); ok {
			return c, true
		}
	}
	return MenuEntry{}, false
}

// Click sends the dbusmenu "clicked" event to the entry labelled label.
func (h *Host) Click(it Item, label string) error {
	e, err := h.Entry(it, label)
	if err != nil {
		return err
	}
	menuPath, err := h.menuPath(it)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), callDeadline)
	defer cancel()
	call := h.conn.Object(it.Service, menuPath).CallWithContext(ctx, menuIface+".Event", 0,
		e.ID, "clicked", dbus.MakeVariant(int32(0)), uint32(time.Now().Unix()))
	if call.Err != nil {
		return fmt.Errorf("trayhost: click %q: %w", label, call.Err)
	}
	return nil
}

// Activate is a left click on the icon.
func (h *Host) Activate(it Item) error {
	ctx, cancel := context.WithTimeout(context.Background(), callDeadline)
	defer cancel()
	call := h.conn.Object(it.Service, it.Path).CallWithContext(ctx, itemIface+".Activate", 0, int32(0), int32(0))
	if call.Err != nil {
		return fmt.Errorf("trayhost: activate: %w", call.Err)
	}
	return nil
}

// Property reads a StatusNotifierItem property (Title, ToolTip, IconPixmap…).
func (h *Host) Property(it Item, name string) (dbus.Variant, error) {
	v, err := h.conn.Object(it.Service, it.Path).GetProperty(itemIface + "." + name)
	if err != nil {
		return dbus.Variant{}, fmt.Errorf("trayhost: property %s: %w", name, err)
	}
	return v, nil
}

func (h *Host) menuPath(it Item) (dbus.ObjectPath, error) {
	v, err := h.Property(it, "Menu")
	if err != nil {
		return "", err
	}
	p, ok := v.Value().(dbus.ObjectPath)
	if !ok {
		return "", fmt.Errorf("trayhost: Menu property is %T", v.Value())
	}
	return p, nil
}
