// Package trayhost is a test tray: it owns org.kde.StatusNotifierWatcher on
// a (private) session bus, records the StatusNotifierItems that register,
// reads their com.canonical.dbusmenu menus and clicks items — what a panel
// does when a person clicks the tray icon.
package trayhost

import (
	"errors"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/sessionbus"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/introspect"
	"github.com/godbus/dbus/v5/prop"
)

const (
	watcherName  = "org.kde.StatusNotifierWatcher"
	watcherPath  = "/StatusNotifierWatcher"
	itemIface    = "org.kde.StatusNotifierItem"
	menuIface    = "com.canonical.dbusmenu"
	defaultItem  = "/StatusNotifierItem"
	callDeadline = 5 * time.Second
)

// ErrNoItem is returned when no item has registered (yet).
var ErrNoItem = errors.New("trayhost: no status notifier item registered")

// Item is one registered tray icon.
type Item struct {
	Service string // the bus name that owns it (unique name or well-known)
	Path    dbus.ObjectPath
}

// Host is the watcher; create it with New, stop it with Close.
type Host struct {
	conn  *dbus.Conn
	props *prop.Properties
	sig   chan *dbus.Signal

	mu      sync.Mutex
	items   []Item
	changed chan struct{} // closed and replaced on every change
}

// New connects to the bus at address (a dbus-daemon --print-address value,
// or "" for the session bus) and takes the watcher name.
func New(address string) (*Host, error) {
	// The one way this project dials a session bus: never autolaunched
	// (backend/sessionbus).
	conn, err := sessionbus.Connect(address)
	if err != nil {
		return nil, fmt.Errorf("trayhost: %w", err)
	}
	h := &Host{conn: conn, sig: make(chan *dbus.Signal, 16), changed: make(chan struct{})}
	if err := h.export(); err != nil {
		conn.Close()
		return nil, err
	}
	reply, err := conn.RequestName(watcherName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		conn.Close()
		return nil, fmt.Errorf("trayhost: own %s: reply %v, %w", watcherName, reply, err)
	}
	// Forget items whose owner leaves the bus, as a real watcher does.
	if err := conn.AddMatchSignal(dbus.WithMatchSender("org.freedesktop.DBus"),
		dbus.WithMatchMember("NameOwnerChanged")); err != nil {
		conn.Close()
		return nil, fmt.Errorf("trayhost: watch owners: %w", err)
	}
	conn.Signal(h.sig)
	go h.watchOwners()
	return h, nil
}

func (h *Host) export() error {
	w := watcher{h}
	if err := h.conn.Export(w, watcherPath, watcherName); err != nil {
		return fmt.Errorf("trayhost: export: %w", err)
	}
	props, err := prop.Export(h.conn, watcherPath, map[string]map[string]*prop.Prop{watcherName: {
		"RegisteredStatusNotifierItems":  {Value: []string{}, Emit: prop.EmitTrue},
		"IsStatusNotifierHostRegistered": {Value: true, Emit: prop.EmitConst},
		"ProtocolVersion":                {Value: int32(0), Emit: prop.EmitConst},
	}})
	if err != nil {
		return fmt.Errorf("trayhost: export props: %w", err)
	}
	h.props = props
	node := &introspect.Node{Name: watcherPath, Interfaces: []introspect.Interface{
		introspect.IntrospectData, prop.IntrospectData,
		{Name: watcherName, Methods: introspect.Methods(w), Properties: props.Introspection(watcherName)},
	}}
	return h.conn.Export(introspect.NewIntrospectable(node), watcherPath, "org.freedesktop.DBus.Introspectable")
}

// watcher carries the exported D-Bus methods.
type watcher struct{ h *Host }

// RegisterStatusNotifierItem takes a bus name or an object path (fyne.io/
// systray and libappindicator send the path, so the sender is the owner).
func (w watcher) RegisterStatusNotifierItem(sender dbus.Sender, service string) *dbus.Error {
	it := Item{Service: string(sender), Path: defaultItem}
	if dbus.ObjectPath(service).IsValid() && len(service) > 0 && service[0] == '/' {
		it.Path = dbus.ObjectPath(service)
	} else if service != "" {
		it.Service = service
	}
	w.h.update(func(items []Item) []Item {
		for _, x := range items {
			if x == it {
				return items
			}
		}
		return append(items, it)
	})
	_ = w.h.conn.Emit(watcherPath, watcherName+".StatusNotifierItemRegistered", it.Service+string(it.Path))
	return nil
}

// RegisterStatusNotifierHost is accepted and ignored: this is the host.
func (w watcher) RegisterStatusNotifierHost(string) *dbus.Error { return nil }

func (h *Host) update(fn func([]Item) []Item) {
	h.mu.Lock()
	h.items = fn(h.items)
	names := make([]string, len(h.items))
	for i, it := range h.items {
		names[i] = it.Service + string(it.Path)
	}
	close(h.changed)
	h.changed = make(chan struct{})
	h.mu.Unlock()
	h.publish(names)
}

// publish sets the items property. SetMust panics when it cannot emit the
// change; an owner leaving as the test closes the bus is no failure.
func (h *Host) publish(names []string) {
	defer func() {
		r := recover()
		if err, ok := r.(error); ok && errors.Is(err, dbus.ErrClosed) {
			return // closed by the test as an owner left (Connected may not say so yet)
		}
		if r != nil && h.conn.Connected() {
			panic(r)
		}
	}()
	h.props.SetMust(watcherName, "RegisteredStatusNotifierItems", names)
}

func (h *Host) watchOwners() {
	for s := range h.sig {
		if s == nil || s.Name != "org.freedesktop.DBus.NameOwnerChanged" || len(s.Body) < 3 {
			continue
		}
		name, _ := s.Body[0].(string)
		newOwner, _ := s.Body[2].(string)
		if newOwner != "" {
			continue
		}
		h.update(func(items []Item) []Item {
			kept := items[:0]
			for _, it := range items {
				if it.Service != name {
					kept = append(kept, it)
				}
			}
			return kept
		})
	}
}

// Items returns the registered items.
func (h *Host) Items() []Item {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Item(nil), h.items...)
}

// WaitItem waits until an item other than those in not is registered and
// returns it; pass the previous item to wait for a re-registration.
func (h *Host) WaitItem(timeout time.Duration, not ...Item) (Item, error) {
	deadline := time.After(timeout)
	for {
		h.mu.Lock()
		ch := h.changed
		for _, it := range h.items {
			if !contains(not, it) {
				h.mu.Unlock()
				return it, nil
			}
		}
		h.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			return Item{}, ErrNoItem
		}
	}
}

// WaitGone waits until it is no longer registered.
func (h *Host) WaitGone(it Item, timeout time.Duration) error {
	deadline := time.After(timeout)
	for {
		h.mu.Lock()
		ch := h.changed
		there := contains(h.items, it)
		h.mu.Unlock()
		if !there {
			return nil
		}
		select {
		case <-ch:
		case <-deadline:
			return fmt.Errorf("trayhost: item %v still registered", it)
		}
	}
}

func contains(items []Item, it Item) bool {
	for _, x := range items {
		if x == it {
			return true
		}
	}
	return false
}

// Close releases the name and the connection.
func (h *Host) Close() error {
	h.conn.RemoveSignal(h.sig)
	close(h.sig)
	return h.conn.Close()
}
