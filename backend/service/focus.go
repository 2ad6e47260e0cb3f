package service

import (
	"context"
	"sync"
)

// ClientFocus is what a window says it shows: the session on screen ("" for
// none) and whether the window has the keyboard focus. Notifications skip
// the session a person is looking at (docs/ARCHITECTURE.md §Notifications).
type ClientFocus struct {
	SessionID string `json:"session_id"`
	Focused   bool   `json:"focused"`
}

// focusState holds the last focus and who listens to it.
type focusState struct {
	mu        sync.Mutex
	last      ClientFocus
	listeners map[int]func(ClientFocus)
	next      int
}

// SetClientFocus records the window's focus and tells the listeners.
func (s *Service) SetClientFocus(_ context.Context, f ClientFocus) (ClientFocus, error) {
	if len(f.SessionID) > MaxNameBytes {
		return ClientFocus{}, badRequest("session_id is too long")
	}
	s.focus.mu.Lock()
	s.focus.last = f
	ls := make([]func(ClientFocus), 0, len(s.focus.listeners))
	for _, fn := range s.focus.listeners {
		ls = append(ls, fn)
	}
	s.focus.mu.Unlock()
	for _, fn := range ls {
		fn(f)
	}
	return f, nil
}

// ClientFocus returns the window's last reported focus.
func (s *Service) ClientFocus() ClientFocus {
	s.focus.mu.Lock()
	defer s.focus.mu.Unlock()
	return s.focus.last
}

// OnClientFocus adds a listener, called on the caller's goroutine of
// SetClientFocus (it must not block); the returned func removes it.
func (s *Service) OnClientFocus(fn func(ClientFocus)) (remove func()) {
	s.focus.mu.Lock()
	defer s.focus.mu.Unlock()
	if s.focus.listeners == nil {
		s.focus.listeners = map[int]func(ClientFocus){}
	}
	id := s.focus.next
	s.focus.next++
	s.focus.listeners[id] = fn
	return func() {
		s.focus.mu.Lock()
		defer s.focus.mu.Unlock()
		delete(s.focus.listeners, id)
	}
}
