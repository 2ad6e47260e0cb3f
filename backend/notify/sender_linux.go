//go:build linux

package notify

import (
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/sessionbus"
	"log/slog"
	"strings"
	"sync"

	fdo "github.com/esiqveland/notify"
	"github.com/godbus/dbus/v5"
)

// DBusSender shows notifications through org.freedesktop.Notifications,
// with the note's actions as buttons. It needs no tray: a desktop without
// a StatusNotifierWatcher still has a notification server.
//
// It reads the server's signals itself rather than through esiqveland/
// notify's loop, whose unchecked type assertions let one malformed
// ActionInvoked from any client on the bus panic the core (issue 21 item
// 5): a signal counts only when its body has the right types and it comes
// from the connection that owns the notifications name now.
type DBusSender struct {
	conn    *dbus.Conn
	invoke  func(key, action string)
	log     *slog.Logger
	signals chan *dbus.Signal
	done    chan struct{}

	mu     sync.Mutex
	server string            // the unique name owning org.freedesktop.Notifications, "" when none
	ids    map[string]uint32 // note key → server id
	keys   map[uint32]string
}

const (
	fdoName      = "org.freedesktop.Notifications"
	fdoPath      = dbus.ObjectPath("/org/freedesktop/Notifications")
	busName      = "org.freedesktop.DBus"
	sigAction    = fdoName + ".ActionInvoked"
	sigClosed    = fdoName + ".NotificationClosed"
	sigOwnerMove = busName + ".NameOwnerChanged"
)

// NewPlatformSender connects to the session bus (or the bus at address,
// for tests). invoke gets every clicked action with its note's key.
func NewPlatformSender(address string, invoke func(key, action string), log *slog.Logger) (Sender, error) {
	return NewDBusSender(address, invoke, log)
}

// NewDBusSender is NewPlatformSender with its concrete type.
func NewDBusSender(address string, invoke func(key, action string), log *slog.Logger) (*DBusSender, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// Never autolaunch a bus (backend/sessionbus).
	conn, err := sessionbus.Connect(address)
	if err != nil {
		return nil, fmt.Errorf("notifications: %w", err)
	}
	s := &DBusSender{conn: conn, invoke: invoke, log: log, signals: make(chan *dbus.Signal, 64), done: make(chan struct{}),
		ids: map[string]uint32{}, keys: map[uint32]string{}}
	// Subscribe before asking who owns the name, so a server that starts
	// in between (D-Bus activation on the first Notify) is seen.
	if err = conn.AddMatchSignal(dbus.WithMatchObjectPath(fdoPath), dbus.WithMatchInterface(fdoName)); err == nil {
		err = conn.AddMatchSignal(dbus.WithMatchSender(busName), dbus.WithMatchInterface(busName),
			dbus.WithMatchMember("NameOwnerChanged"), dbus.WithMatchArg(0, fdoName))
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifications: cannot listen to the notification server: %w", err)
	}
	conn.Signal(s.signals)
	var owner string
	if err := conn.BusObject().Call(busName+".GetNameOwner", 0, fdoName).Store(&owner); err != nil {
		log.Debug("notifications: no server yet; waiting for one", "err", err)
	}
	s.server = owner
	go s.listen()
	return s, nil
}

// listen handles the bus's signals until Close.
func (s *DBusSender) listen() {
	defer close(s.done)
	for sig := range s.signals {
		s.handle(sig)
	}
}

// handle acts on one signal. Anything malformed or from a stranger is
// dropped with a log line; a panic in the handlers is logged, never kills
// the process.
func (s *DBusSender) handle(sig *dbus.Signal) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("notifications: a signal handler failed", "signal", sig.Name, "err", r)
		}
	}()
	if sig == nil {
		return
	}
	if sig.Name == sigOwnerMove {
		name, _, owner, ok := parseOwnerChanged(sig)
		if ok && sig.Sender == busName && name == fdoName {
			s.mu.Lock()
			s.server = owner
			s.mu.Unlock()
		}
		return
	}
	if sig.Path != fdoPath || (sig.Name != sigAction && sig.Name != sigClosed) {
		return
	}
	s.mu.Lock()
	server := s.server
	s.mu.Unlock()
	if server == "" || sig.Sender != server {
		s.log.Warn("notifications: ignored a signal that does not come from the notification server",
			"signal", sig.Name, "sender", sig.Sender, "server", server)
		return
	}
	switch sig.Name {
	case sigAction:
		id, action, ok := parseActionInvoked(sig.Body)
		if !ok {
			s.log.Warn("notifications: ignored a malformed ActionInvoked", "body", fmt.Sprintf("%.200v", sig.Body))
			return
		}
		s.onAction(id, action)
	case sigClosed:
		id, ok := parseClosed(sig.Body)
		if !ok {
			s.log.Warn("notifications: ignored a malformed NotificationClosed", "body", fmt.Sprintf("%.200v", sig.Body))
			return
		}
		s.onClosed(id)
	}
}

// parseActionInvoked reads ActionInvoked(u id, s action_key).
func parseActionInvoked(body []any) (uint32, string, bool) {
	if len(body) != 2 {
		return 0, "", false
	}
	id, ok1 := body[0].(uint32)
	key, ok2 := body[1].(string)
	return id, key, ok1 && ok2
}

// parseClosed reads NotificationClosed(u id, u reason).
func parseClosed(body []any) (uint32, bool) {
	if len(body) != 2 {
		return 0, false
	}
	id, ok1 := body[0].(uint32)
	_, ok2 := body[1].(uint32)
	return id, ok1 && ok2
}

// parseOwnerChanged reads NameOwnerChanged(s name, s old, s new).
func parseOwnerChanged(sig *dbus.Signal) (name, old, owner string, ok bool) {
	if len(sig.Body) != 3 {
		return "", "", "", false
	}
	name, ok1 := sig.Body[0].(string)
	old, ok2 := sig.Body[1].(string)
	owner, ok3 := sig.Body[2].(string)
	return name, old, owner, ok1 && ok2 && ok3
}

// Send shows n, replacing the server's notification with the same key.
//
// The lock is held across the call: a click can arrive the moment the
// server has the notification, and onAction must find its key then.
func (s *DBusSender) Send(n Note) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	replaces := s.ids[n.Key]
	note := fdo.Notification{
		AppName: "Hermes Desk", ReplacesID: replaces, AppIcon: "hermesdesk",
		Summary: n.Summary, Body: escapeMarkup(n.Body),
		Actions:       []fdo.Action{fdo.NewDefaultAction("Open")},
		ExpireTimeout: fdo.ExpireTimeoutSetByNotificationServer,
	}
	for _, a := range n.Actions {
		note.Actions = append(note.Actions, fdo.Action{Key: a.Key, Label: a.Label})
	}
	note.AddHint(fdo.Hint{ID: "desktop-entry", Variant: dbus.MakeVariant("hermesdesk")})
	if n.Urgent {
		note.SetUrgency(fdo.UrgencyCritical) // stays until answered
		note.ExpireTimeout = fdo.ExpireTimeoutNever
	}
	id, err := fdo.SendNotification(s.conn, note)
	if err != nil {
		return fmt.Errorf("notifications: %w", err)
	}
	if replaces != 0 && replaces != id {
		delete(s.keys, replaces)
	}
	s.ids[n.Key], s.keys[id] = id, n.Key
	return nil
}

// Withdraw closes the notification with key.
func (s *DBusSender) Withdraw(key string) error {
	s.mu.Lock()
	id, ok := s.ids[key]
	delete(s.ids, key)
	delete(s.keys, id)
	s.mu.Unlock()
	if !ok {
		return nil
	}
	if call := s.conn.Object(fdoName, fdoPath).Call(fdoName+".CloseNotification", 0, id); call.Err != nil {
		return fmt.Errorf("notifications: close: %w", call.Err)
	}
	return nil
}

func (s *DBusSender) onAction(id uint32, action string) {
	s.mu.Lock()
	key, ok := s.keys[id]
	s.mu.Unlock()
	if ok && s.invoke != nil {
		s.invoke(key, action)
	}
}

func (s *DBusSender) onClosed(id uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if key, ok := s.keys[id]; ok {
		delete(s.keys, id)
		if s.ids[key] == id {
			delete(s.ids, key)
		}
	}
}

// Close stops listening and leaves the bus.
func (s *DBusSender) Close() error {
	err := s.conn.Close() // closes the signal channel: listen ends
	<-s.done
	return err
}

// escapeMarkup: servers with "body-markup" read <b>, <a href>…; agent
// text must show as text.
func escapeMarkup(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
