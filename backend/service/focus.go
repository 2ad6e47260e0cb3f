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
	listeners []func(ClientFocus)
}

// SetClientFocus records the window's focus and tells the listeners.
func (s *Service) SetClientFocus(_ context.Context, f ClientFocus) (ClientFocus, error) {
	if len(f.SessionID) > MaxNameBytes {
		return ClientFocus{}, badRequest("session_id is too long")
	}
	s.focus.mu.Lock()
	s.focus.last = f
	ls := append([]func(ClientFocus){}, s.focus.listeners...)
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
// SetClientFocus (it must not block).
func (s *Service) OnClientFocus(fn func(ClientFocus)) {
	s.focus.mu.Lock()
	defer s.focus.mu.Unlock()
	s.focus.listeners = append(s.focus.listeners, fn)
}
