//go:build linux

package notify

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"

	fdo "github.com/esiqveland/notify"
	"github.com/godbus/dbus/v5"
)

// DBusSender shows notifications through org.freedesktop.Notifications,
// with the note's actions as buttons. It needs no tray: a desktop without
// a StatusNotifierWatcher still has a notification server.
type DBusSender struct {
	conn   *dbus.Conn
	n      fdo.Notifier
	invoke func(key, action string)
	log    *slog.Logger

	mu   sync.Mutex
	ids  map[string]uint32 // note key → server id
	keys map[uint32]string
}

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
	var conn *dbus.Conn
	var err error
	if address == "" {
		conn, err = dbus.SessionBusPrivate()
	} else {
		conn, err = dbus.Dial(address)
	}
	if err != nil {
		return nil, fmt.Errorf("notifications: session bus: %w", err)
	}
	if err = conn.Auth(nil); err == nil {
		err = conn.Hello()
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifications: session bus: %w", err)
	}
	s := &DBusSender{conn: conn, invoke: invoke, log: log, ids: map[string]uint32{}, keys: map[uint32]string{}}
	n, err := fdo.New(conn, fdo.WithOnAction(s.onAction), fdo.WithOnClosed(s.onClosed), fdo.WithLogger(slogPrintf{log}))
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifications: %w", err)
	}
	s.n = n
	return s, nil
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
	id, err := s.n.SendNotification(note)
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
	if _, err := s.n.CloseNotification(id); err != nil {
		return fmt.Errorf("notifications: close: %w", err)
	}
	return nil
}

func (s *DBusSender) onAction(sig *fdo.ActionInvokedSignal) {
	s.mu.Lock()
	key, ok := s.keys[sig.ID]
	s.mu.Unlock()
	if ok && s.invoke != nil {
		s.invoke(key, sig.ActionKey)
	}
}

func (s *DBusSender) onClosed(sig *fdo.NotificationClosedSignal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if key, ok := s.keys[sig.ID]; ok {
		delete(s.keys, sig.ID)
		if s.ids[key] == sig.ID {
			delete(s.ids, key)
		}
	}
}

// Close stops listening and leaves the bus.
func (s *DBusSender) Close() error {
	_ = s.n.Close()
	return s.conn.Close()
}

// escapeMarkup: servers with "body-markup" read <b>, <a href>…; agent
// text must show as text.
func escapeMarkup(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

type slogPrintf struct{ log *slog.Logger }

func (l slogPrintf) Printf(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }
