package tray

import (
	"log/slog"
	"reflect"
	"sync"
	"sync/atomic"

	"fyne.io/systray"
)

// Tray renders menus with fyne.io/systray. There is one per process (the
// library is a singleton); Start it once.
type Tray struct {
	icons    map[string][]byte
	fallback []byte
	onClick  func(id string)
	log      *slog.Logger

	mu      sync.Mutex
	ready   bool
	stopped bool // after Stop the library's D-Bus connection is closed: touch nothing
	shown   *Menu
	pending *Menu
	items   []*systray.MenuItem // the shown items, in Walk order
	end     func()

	// The click dispatcher (see dispatch): watching is what it listens
	// to, rewatch wakes it when that changed, gen is the shown menu's
	// generation, bumped before every rebuild.
	watching []watched
	rewatch  chan struct{}
	quit     chan struct{}
	gen      atomic.Uint64
}

// watched is one clickable item of a menu generation.
type watched struct {
	id          string
	destructive bool
	gen         uint64
	ch          <-chan struct{}
}

// New returns a tray that shows icons[m.Icon] (fallback when unknown) and
// reports clicks on items (by ID; IDOpen for a left click on the icon).
func New(icons map[string][]byte, fallback []byte, onClick func(id string), log *slog.Logger) *Tray {
	t := &Tray{icons: icons, fallback: fallback, onClick: onClick, log: log,
		rewatch: make(chan struct{}, 1), quit: make(chan struct{})}
	go t.dispatch()
	return t
}

// Start registers the icon with the session's tray host; it re-registers
// by itself when a host appears later.
func (t *Tray) Start() {
	// Before start: the library reads these while it exports the item.
	systray.SetTitle(Title)
	systray.SetOnTapped(func() { t.onClick(IDOpen) }) // left click where the host sends Activate
	start, end := systray.RunWithExternalLoop(t.onReady, func() {})
	t.mu.Lock()
	t.end = end
	t.mu.Unlock()
	start()
}

// Stop removes the icon.
func (t *Tray) Stop() {
	t.mu.Lock()
	end := t.end
	wasStopped := t.stopped
	t.end, t.stopped, t.ready = nil, true, false
	t.mu.Unlock()
	if !wasStopped {
		close(t.quit)
	}
	if end != nil {
		end()
	}
}

func (t *Tray) onReady() {
	t.mu.Lock()
	if t.stopped {
		t.mu.Unlock()
		return
	}
	t.ready = true
	m := t.pending
	t.mu.Unlock()
	if m != nil {
		t.Set(*m)
	}
}

// Set shows m; an unchanged menu is not rebuilt. After Stop it does
// nothing: a view the bus delivers while the app quits must not reach a
// closed connection (the library panics on any D-Bus error).
func (t *Tray) Set(m Menu) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	defer func() {
		// The session bus itself can go (logout): the core outlives its
		// icon, and its runs must not die with it.
		if r := recover(); r != nil {
			t.stopped, t.ready = true, false
			t.log.Warn("tray: the session bus went away; the icon is gone", "err", r)
		}
	}()
	if !t.ready {
		t.pending = &m
		return
	}
	if t.shown != nil && reflect.DeepEqual(*t.shown, m) {
		return
	}
	old := t.shown
	t.shown = &m
	if old == nil || old.Icon != m.Icon {
		icon, ok := t.icons[m.Icon]
		if !ok {
			icon = t.fallback
		}
		systray.SetIcon(icon)
	}
	if old == nil || old.Tooltip != m.Tooltip {
		systray.SetTooltip(m.Tooltip)
	}
	if old == nil || old.NeedsAttention != m.NeedsAttention {
		if err := setStatus(m.NeedsAttention); err != nil {
			t.log.Warn("tray: cannot show that a run needs you in the tray's status", "err", err)
		}
	}
	if old != nil && reflect.DeepEqual(old.Items, m.Items) {
		return
	}
	if old != nil && sameShape(old.Items, m.Items) {
		// Only labels or check marks changed: update in place, so a host
		// holding the menu's item ids (a click in flight) stays right.
		i := 0
		walk(m.Items, func(it Item) {
			mi := t.items[i]
			i++
			mi.SetTitle(it.Label)
			mi.SetTooltip(it.Tooltip)
			if it.Checked {
				mi.Check()
			} else {
				mi.Uncheck()
			}
			if it.Disabled {
				mi.Disable()
			} else {
				mi.Enable()
			}
		})
		return
	}
	// A new generation before the old items go: a click on one of them
	// that the dispatcher takes from now on is a click on a menu that is
	// no longer shown (docs/ARCHITECTURE.md §Tray).
	gen := t.gen.Add(1)
	t.watching, t.items = nil, nil
	systray.ResetMenu()
	t.add(m.Items, nil, gen)
	select {
	case t.rewatch <- struct{}{}:
	default: // already woken; it reads the latest watching
	}
}

// dispatch is the one loop that turns item clicks into onClick. The
// library closes an item's ClickedCh when the menu is reset: a closed
// channel is never a click. A click on a destructive item (stop a run,
// quit, Start at login) of a replaced menu is dropped: the person saw a
// different menu, and a host may deliver a click on an id the rebuild
// reused (issue 21 item 2: the tray clicked itself).
func (t *Tray) dispatch() {
	cases := []reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(t.quit)},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(t.rewatch)},
	}
	var items []watched
	for {
		i, _, ok := reflect.Select(cases)
		switch {
		case i == 0:
			return
		case i == 1:
			t.mu.Lock()
			items = t.watching
			t.mu.Unlock()
			cases = cases[:2]
			for _, w := range items {
				cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(w.ch)})
			}
		case !ok:
			cases[i].Chan = reflect.Value{} // closed by a reset: never ready again
		default:
			w := items[i-2]
			if w.destructive && w.gen != t.gen.Load() {
				t.log.Info("tray: a click on an item of a replaced menu was ignored", "id", w.id)
				continue
			}
			// Off the loop: a Stop run waits for its API call, and the
			// library drops a click nobody is receiving.
			go t.onClick(w.id)
		}
	}
}

// sameShape: the same items (ids, kinds, submenus) in the same order.
func sameShape(a, b []Item) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Separator != b[i].Separator || a[i].Checkbox != b[i].Checkbox ||
			!sameShape(a[i].Children, b[i].Children) {
			return false
		}
	}
	return true
}

// walk visits the non-separator items depth-first, parents first: the
// order add creates them in.
func walk(items []Item, fn func(Item)) {
	for _, it := range items {
		if it.Separator {
			continue
		}
		fn(it)
		walk(it.Children, fn)
	}
}

// add builds items under parent (nil: the top level) for menu generation gen.
func (t *Tray) add(items []Item, parent *systray.MenuItem, gen uint64) {
	for _, it := range items {
		if it.Separator {
			if parent == nil {
				systray.AddSeparator()
			} else {
				parent.AddSeparator()
			}
			continue
		}
		var mi *systray.MenuItem
		switch {
		case parent == nil && it.Checkbox:
			mi = systray.AddMenuItemCheckbox(it.Label, it.Tooltip, it.Checked)
		case parent == nil:
			mi = systray.AddMenuItem(it.Label, it.Tooltip)
		case it.Checkbox:
			mi = parent.AddSubMenuItemCheckbox(it.Label, it.Tooltip, it.Checked)
		default:
			mi = parent.AddSubMenuItem(it.Label, it.Tooltip)
		}
		if it.Disabled {
			mi.Disable()
		}
		t.items = append(t.items, mi)
		if len(it.Children) > 0 {
			t.add(it.Children, mi, gen)
		}
		if it.ID == "" {
			continue
		}
		t.watching = append(t.watching, watched{id: it.ID, destructive: it.Destructive, gen: gen, ch: mi.ClickedCh})
	}
}
