package traystate

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/watchbus"
)

// Source is the one method of the watch bus a follower needs
// (service.Service.Watch has it; tests use a fake).
type Source = watchbus.Source

// Model owns a State and renders it for a tray: every change on the bus,
// every autostart change and every minute (the ages in the menu move)
// produce a new View for onView. Safe for concurrent use.
type Model struct {
	onView func(View)
	now    func() time.Time

	mu        sync.Mutex
	st        *State
	autostart bool
	last      *View
}

// NewModel returns a model that reports views to onView.
func NewModel(onView func(View)) *Model {
	return &Model{onView: onView, now: time.Now, st: New()}
}

// Apply folds a watch message in and reports the view if it changed.
func (m *Model) Apply(msg run.WatchMessage) {
	m.mu.Lock()
	changed := m.st.Apply(msg)
	m.mu.Unlock()
	if changed {
		m.Refresh()
	}
}

// SetAutostart records the state of the login entry on disk.
func (m *Model) SetAutostart(on bool) {
	m.mu.Lock()
	m.autostart = on
	m.mu.Unlock()
	m.Refresh()
}

// Push records the login entry's state and sends the current view even if
// it was sent before: a new tray helper has to be told everything.
func (m *Model) Push(autostart bool) {
	m.mu.Lock()
	m.autostart = autostart
	m.last = nil
	m.mu.Unlock()
	m.Refresh()
}

// Active returns the active runs, in menu order.
func (m *Model) Active() []run.RunState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.st.Runs()
}

// View renders the current view.
func (m *Model) View() View {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Render(m.st.Runs(), Options{Now: m.now(), Autostart: m.autostart})
}

// Refresh sends the current view to onView unless it is the one sent last.
func (m *Model) Refresh() {
	v := m.View()
	m.mu.Lock()
	same := m.last != nil && equalView(*m.last, v)
	if !same {
		m.last = &v
	}
	m.mu.Unlock()
	if !same && m.onView != nil {
		m.onView(v)
	}
}

// Run follows src and refreshes the ages every minute until ctx ends.
func (m *Model) Run(ctx context.Context, src Source, log *slog.Logger) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				m.Refresh()
			}
		}
	}()
	watchbus.Follow(ctx, src, m.Apply, watchbus.Options{Log: log})
	wg.Wait()
}

func equalView(a, b View) bool {
	if a.Icon != b.Icon || a.Running != b.Running || a.NeedsYou != b.NeedsYou || a.Tooltip != b.Tooltip {
		return false
	}
	return equalItems(a.Items, b.Items)
}

func equalItems(a, b []Item) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Label != y.Label || x.Tooltip != y.Tooltip || x.Action != y.Action || x.RunID != y.RunID ||
			x.SessionID != y.SessionID || x.Separator != y.Separator || x.Checkbox != y.Checkbox ||
			x.Checked != y.Checked || !equalItems(x.Children, y.Children) {
			return false
		}
	}
	return true
}
