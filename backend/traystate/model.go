package traystate

import (
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/clock"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// agesEvery is how often the menu's ages ("4 min") move while it lists
// runs.
const agesEvery = time.Minute

// Model owns a State and renders it for a tray: every change on the bus
// produces a new View for onView, and while the
// menu lists runs a minute later too (their ages moved). An idle tray
// arms no timer (docs/ARCHITECTURE.md §Idle). Safe for concurrent use.
type Model struct {
	onView func(View)
	clock  clock.Clock

	mu    sync.Mutex
	st    *State
	quota []string // SetQuota's lines
	last  *View
	// ages is the armed ages refresh, nil when none (no runs listed);
	// closing agesStop ends its goroutine when the timer is stopped.
	ages     clock.Timer
	agesStop chan struct{}
}

// NewModel returns a model that reports views to onView.
func NewModel(onView func(View)) *Model {
	return &Model{onView: onView, clock: clock.Real{}, st: New()}
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

// Active returns the active runs, in menu order.
func (m *Model) Active() []run.RunState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.st.Runs()
}

// View renders the current view. The login entry's check mark is the
// core's to set: it reads the entry on disk (core/traymodel.go).
func (m *Model) View() View {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Render(m.st.Runs(), Options{Now: m.clock.Now(), Quota: m.quota, Conflicts: m.st.ConflictLines()})
}

// SetQuota replaces the vendors' quota lines the menu shows and reports
// the view if it changed.
func (m *Model) SetQuota(lines []string) {
	m.mu.Lock()
	m.quota = append([]string(nil), lines...)
	m.mu.Unlock()
	m.Refresh()
}

// Refresh sends the current view to onView unless it is the one sent last,
// and arms the ages refresh while runs are listed (stops it when none are).
func (m *Model) Refresh() {
	v := m.View()
	m.mu.Lock()
	same := m.last != nil && equalView(*m.last, v)
	if !same {
		m.last = &v
	}
	m.agesLocked()
	m.mu.Unlock()
	if !same && m.onView != nil {
		m.onView(v)
	}
}

// agesLocked keeps one ages timer armed while the state holds runs, and
// none when it holds none. When the timer fires, Refresh renders the new
// ages and arms the next one.
func (m *Model) agesLocked() {
	if len(m.st.runs) == 0 {
		if m.ages != nil {
			m.ages.Stop()
			close(m.agesStop)
			m.ages, m.agesStop = nil, nil
		}
		return
	}
	if m.ages != nil {
		return
	}
	t, stop := m.clock.NewTimer(agesEvery), make(chan struct{})
	m.ages, m.agesStop = t, stop
	go func() {
		select {
		case <-stop:
			return
		case <-t.C():
		}
		m.mu.Lock()
		if m.ages == t {
			m.ages, m.agesStop = nil, nil
		}
		m.mu.Unlock()
		m.Refresh()
	}()
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
