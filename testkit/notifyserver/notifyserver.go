// Package notifyserver is a test notification server: it owns
// org.freedesktop.Notifications on a (private) session bus, records every
// Notify call, and does what a person does with a notification — click one
// of its buttons (ActionInvoked) or dismiss it (NotificationClosed).
package notifyserver

import (
	"fmt"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/introspect"
)

const (
	name  = "org.freedesktop.Notifications"
	path  = "/org/freedesktop/Notifications"
	iface = "org.freedesktop.Notifications"
)

// Close reasons of the specification.
const (
	ReasonExpired   = uint32(1)
	ReasonDismissed = uint32(2)
	ReasonClosed    = uint32(3) // by a CloseNotification call
)

// Notification is one recorded Notify call.
type Notification struct {
	ID       uint32
	Replaces uint32
	AppName  string
	Summary  string
	Body     string
	Actions  [][2]string // (key, label)
	Hints    map[string]dbus.Variant
	Open     bool // not yet closed
	Closed   uint32
}

// Label returns the label of the action with key, "" if none.
func (n Notification) Label(key string) string {
	for _, a := range n.Actions {
		if a[0] == key {
			return a[1]
		}
	}
	return ""
}

// Server is the test server; New starts it, Close stops it.
type Server struct {
	conn *dbus.Conn

	mu      sync.Mutex
	next    uint32
	calls   []Notification // every Notify, in order
	byID    map[uint32]int // id → index of its latest call
	changed chan struct{}
}

// New connects to the bus at address and owns the notifications name.
func New(address string) (*Server, error) {
	conn, err := dbus.Dial(address)
	if err != nil {
		return nil, fmt.Errorf("notifyserver: dial: %w", err)
	}
	if err := conn.Auth(nil); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifyserver: auth: %w", err)
	}
	if err := conn.Hello(); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifyserver: hello: %w", err)
	}
	s := &Server{conn: conn, byID: map[uint32]int{}, changed: make(chan struct{})}
	m := methods{s}
	if err := conn.Export(m, path, iface); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifyserver: export: %w", err)
	}
	node := &introspect.Node{Name: path, Interfaces: []introspect.Interface{introspect.IntrospectData,
		{Name: iface, Methods: introspect.Methods(m)}}}
	_ = conn.Export(introspect.NewIntrospectable(node), path, "org.freedesktop.DBus.Introspectable")
	reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		conn.Close()
		return nil, fmt.Errorf("notifyserver: own %s: reply %v, %w", name, reply, err)
	}
	return s, nil
}

// methods are the exported D-Bus methods.
type methods struct{ s *Server }

func (m methods) Notify(appName string, replaces uint32, _ string, summary, body string, actions []string,
	hints map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	s := m.s
	s.mu.Lock()
	defer s.mu.Unlock()
	id := replaces
	if _, ok := s.byID[id]; !ok || id == 0 {
		s.next++
		id = s.next
	}
	n := Notification{ID: id, Replaces: replaces, AppName: appName, Summary: summary, Body: body, Hints: hints, Open: true}
	for i := 0; i+1 < len(actions); i += 2 {
		n.Actions = append(n.Actions, [2]string{actions[i], actions[i+1]})
	}
	if i, ok := s.byID[id]; ok {
		s.calls[i].Open = false // replaced
	}
	s.calls = append(s.calls, n)
	s.byID[id] = len(s.calls) - 1
	s.kick()
	return id, nil
}

func (m methods) CloseNotification(id uint32) *dbus.Error {
	m.s.close(id, ReasonClosed)
	return nil
}

func (m methods) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"actions", "body", "persistence"}, nil
}

func (m methods) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "hermesdesk-test", "hermesdesk", "1", "1.2", nil
}

func (s *Server) kick() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) close(id, reason uint32) bool {
	s.mu.Lock()
	i, ok := s.byID[id]
	open := ok && s.calls[i].Open
	if open {
		s.calls[i].Open, s.calls[i].Closed = false, reason
		s.kick()
	}
	s.mu.Unlock()
	if open {
		_ = s.conn.Emit(path, iface+".NotificationClosed", id, reason)
	}
	return open
}

// Invoke clicks the action with key on notification id, then closes it
// as servers do after an action.
func (s *Server) Invoke(id uint32, key string) error {
	s.mu.Lock()
	i, ok := s.byID[id]
	open := ok && s.calls[i].Open
	s.mu.Unlock()
	if !open {
		return fmt.Errorf("notifyserver: notification %d is not open", id)
	}
	if err := s.conn.Emit(path, iface+".ActionInvoked", id, key); err != nil {
		return fmt.Errorf("notifyserver: ActionInvoked: %w", err)
	}
	s.close(id, ReasonDismissed)
	return nil
}

// Dismiss closes a notification as a person's ×.
func (s *Server) Dismiss(id uint32) { s.close(id, ReasonDismissed) }

// Calls returns every Notify call so far (with Open as it is now).
func (s *Server) Calls() []Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Notification(nil), s.calls...)
}

// Wait waits until cond holds over the calls and returns them.
func (s *Server) Wait(timeout time.Duration, cond func([]Notification) bool) ([]Notification, error) {
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		ch := s.changed
		calls := append([]Notification(nil), s.calls...)
		s.mu.Unlock()
		if cond(calls) {
			return calls, nil
		}
		select {
		case <-ch:
		case <-deadline:
			return calls, fmt.Errorf("notifyserver: condition not met after %v; calls %+v", timeout, calls)
		}
	}
}

// Close leaves the bus.
func (s *Server) Close() error { return s.conn.Close() }
