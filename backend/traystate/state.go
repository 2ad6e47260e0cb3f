// Package traystate is what the tray shows, as data: the icon state, the
// tooltip and the menu, computed from the watch bus (docs/ARCHITECTURE.md
// §Tray). It draws nothing and imports no GUI library, so the same model
// feeds the tray helper today and the resident core's tray later, and every
// decision is table-tested without a display.
package traystate

import (
	"sort"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// State is the set of active runs the watch bus has told about.
type State struct {
	runs map[string]run.RunState
	// conflicts are the conflict radar's lines by project (conflicts.go).
	conflicts map[string][]string
}

// New returns an empty state (no runs: idle).
func New() *State { return &State{runs: map[string]run.RunState{}} }

// Apply folds one watch message into the state and reports whether what
// the tray shows may have changed. A snapshot replaces everything; a
// run.changed with a terminal status removes the run; the conflict radar's
// lines come with the snapshot and conflicts.changed (conflicts.go); other
// message types change nothing here.
func (s *State) Apply(m run.WatchMessage) bool {
	radar := s.applyConflicts(m)
	switch m.Type {
	case run.WatchSnapshotType:
		s.runs = map[string]run.RunState{}
		if m.Snapshot != nil {
			for _, r := range m.Snapshot.Runs {
				if !r.Status.Terminal() && r.RunID != "" {
					s.runs[r.RunID] = r
				}
			}
		}
		return true
	case run.WatchRunChanged:
		if m.Run == nil || m.Run.RunID == "" {
			return false
		}
		if m.Run.Status.Terminal() {
			_, had := s.runs[m.Run.RunID]
			delete(s.runs, m.Run.RunID)
			return had
		}
		s.runs[m.Run.RunID] = *m.Run
		return true
	}
	return radar
}

// Runs returns the active runs: those that need a person first, then the
// rest; oldest first within each group (the one waiting longest on top).
func (s *State) Runs() []run.RunState {
	out := make([]run.RunState, 0, len(s.runs))
	for _, r := range s.runs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if na, nb := NeedsYou(a), NeedsYou(b); na != nb {
			return na
		}
		if !a.CreatedAt.Equal(b.CreatedAt) {
			return a.CreatedAt.Before(b.CreatedAt)
		}
		return a.RunID < b.RunID
	})
	return out
}

// NeedsYou reports whether a run waits for a person: an approval or a
// question is pending.
func NeedsYou(r run.RunState) bool {
	return r.Pending != nil || r.Status == run.StatusAwaitingApproval || r.Status == run.StatusAwaitingClarify
}
