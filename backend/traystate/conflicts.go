package traystate

import (
	"sort"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The conflict radar's lines in the menu ("2 workspaces change
// api/server.go"; docs/ARCHITECTURE.md §Conflict radar): the radar words
// them (run.Conflicts.Lines), the tray shows each project's under the
// runs; a click opens the window, where the chips say more.

// maxConflictLines bounds the radar's lines in the menu, over all projects.
const maxConflictLines = 4

// conflictsTooltip is each radar line's tooltip.
const conflictsTooltip = "Open Hermes Desk to see the overlap and the suggested merge order"

// applyConflicts folds the radar's part of a watch message in; reports
// whether the lines changed.
func (s *State) applyConflicts(m run.WatchMessage) bool {
	switch {
	case m.Type == run.WatchSnapshotType:
		had := len(s.conflicts) > 0
		s.conflicts = map[string][]string{}
		if m.Snapshot != nil {
			for _, c := range m.Snapshot.Conflicts {
				if len(c.Lines) > 0 {
					s.conflicts[c.ProjectID] = c.Lines
				}
			}
		}
		return had || len(s.conflicts) > 0
	case m.Type == run.WatchConflictsChanged && m.Conflicts != nil:
		if s.conflicts == nil {
			s.conflicts = map[string][]string{}
		}
		_, had := s.conflicts[m.Conflicts.ProjectID]
		if len(m.Conflicts.Lines) == 0 {
			delete(s.conflicts, m.Conflicts.ProjectID)
			return had
		}
		s.conflicts[m.Conflicts.ProjectID] = m.Conflicts.Lines
		return true
	}
	return false
}

// ConflictLines are the radar's lines, project by project (by id), at
// most maxConflictLines.
func (s *State) ConflictLines() []string {
	ids := make([]string, 0, len(s.conflicts))
	for id := range s.conflicts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []string
	for _, id := range ids {
		for _, l := range s.conflicts[id] {
			if len(out) == maxConflictLines {
				return out
			}
			out = append(out, l)
		}
	}
	return out
}

// conflictItems are the radar's menu items.
func conflictItems(lines []string) []Item {
	var out []Item
	for _, line := range lines {
		if line = Truncate(Clean(line), maxQuotaLine); line != "" {
			out = append(out, Item{Label: line, Tooltip: conflictsTooltip, Action: ActionOpen})
		}
	}
	return out
}
