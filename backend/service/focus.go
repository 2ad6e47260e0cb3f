package service

import (
	"context"
	"sync"
)

// ClientFocus is what a client (a window, a browser tab, a connection)
// says it shows: the session on screen ("" for none) and whether it has
// the keyboard focus. Notifications skip the session a person is looking
// at (docs/ARCHITECTURE.md §Notifications).
type ClientFocus struct {
	// ClientID names the client, chosen by it (one per page load); ""
	// is the one client that names none (the CLI, an older window).
	ClientID  string `json:"client_id,omitempty"`
	SessionID string `json:"session_id"`
	Focused   bool   `json:"focused"`
}

// focusState holds who has the focus and who listens to it.
//
// Claims are per client: one person has one keyboard focus, so the client
// that most recently said it has it holds it until it says otherwise or
// another client takes it. A client's report of losing the focus clears
// only its own claim — a tab loading in the background, or a blur that
// arrives after the next window's focus, no longer hides or reveals
// another client's session (issue 21 item 13).
type focusState struct {
	mu        sync.Mutex
	holder    *ClientFocus   // the client with the focus; nil when none has it
	streams   map[string]int // open watch streams per client id
	listeners map[int]func(ClientFocus)
	next      int
}

// report folds one client's report in and returns the focus as
// notifications see it: the holder's session, focused; or nothing focused.
func (f *focusState) report(c ClientFocus) ClientFocus {
	switch {
	case c.Focused:
		f.holder = &c
	case f.holder != nil && f.holder.ClientID == c.ClientID:
		f.holder = nil
	}
	return f.effective()
}

func (f *focusState) effective() ClientFocus {
	if f.holder == nil {
		return ClientFocus{}
	}
	return *f.holder
}

// SetClientFocus records a client's focus and tells the listeners what
// the person now looks at.
func (s *Service) SetClientFocus(_ context.Context, f ClientFocus) (ClientFocus, error) {
	if len(f.SessionID) > MaxNameBytes || len(f.ClientID) > MaxNameBytes {
		return ClientFocus{}, badRequest("session_id or client_id is too long")
	}
	s.focus.mu.Lock()
	eff := s.focus.report(f)
	s.tellFocusLocked(eff) // unlocks
	return eff, nil
}

// ClientWatching records that a client follows the watch bus (its page's
// stream, named by its focus client id); done marks that stream closed.
// When a client's last stream closes — a tab closed, crashed or cut off —
// its focus claim goes with it, so a client that vanished never keeps a
// session from being notified. A client that never opens such a stream
// (the desktop window, which follows the bus in Go) keeps its claim until
// it reports otherwise.
func (s *Service) ClientWatching(clientID string) (done func()) {
	if clientID == "" || len(clientID) > MaxNameBytes {
		return func() {}
	}
	f := &s.focus
	f.mu.Lock()
	if f.streams == nil {
		f.streams = map[string]int{}
	}
	f.streams[clientID]++
	f.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			if f.streams[clientID]--; f.streams[clientID] > 0 {
				f.mu.Unlock()
				return
			}
			delete(f.streams, clientID)
			if f.holder == nil || f.holder.ClientID != clientID {
				f.mu.Unlock()
				return
			}
			f.holder = nil
			s.tellFocusLocked(f.effective()) // unlocks
		})
	}
}

// tellFocusLocked unlocks the focus state and tells the listeners eff.
func (s *Service) tellFocusLocked(eff ClientFocus) {
	ls := make([]func(ClientFocus), 0, len(s.focus.listeners))
	for _, fn := range s.focus.listeners {
		ls = append(ls, fn)
	}
	s.focus.mu.Unlock()
	for _, fn := range ls {
		fn(eff)
	}
}

// ClientFocus returns what the person looks at: the session shown by the
// client holding the focus, or nothing focused.
func (s *Service) ClientFocus() ClientFocus {
	s.focus.mu.Lock()
	defer s.focus.mu.Unlock()
	return s.focus.effective()
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
