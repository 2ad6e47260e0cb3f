package service

import (
	"context"
	"sort"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The conflict radar's doors (docs/ARCHITECTURE.md §Conflict radar): the
// bus tells it which sessions changed files, it answers per project on
// the bus (conflicts.changed, and in every snapshot) and through
// GET /api/projects/{id}/conflicts.

// Radar is backend/radar's Radar as the service uses it. Its marks never
// block: they are called from the bus's event tap.
type Radar interface {
	FilesChanged(projectID, sessionID string)
	Conflicts(projectID string) (run.Conflicts, bool)
}

// SetRadar connects the conflict radar (the stack does).
func (s *Service) SetRadar(r Radar) { s.bus.radar = r }

// radarSees tells the radar a run's files may have moved: a file.changed
// event, or the run's end (the workspace snapshot's entries come just
// before it). Called under the bus lock; the radar only marks.
func (b *bus) radarSees(st *run.RunState, ev run.Event) {
	if b.radar != nil && (ev.Type == run.EventFileChanged || ev.Type == run.EventDone) {
		b.radar.FilesChanged(st.ProjectID, st.SessionID)
	}
}

// ConflictsChanged publishes conflicts.changed; a project with no overlap
// leaves the snapshot.
func (s *Service) ConflictsChanged(c run.Conflicts) {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.conflicts == nil {
		b.conflicts = map[string]run.Conflicts{}
	}
	if len(c.Overlaps) == 0 {
		delete(b.conflicts, c.ProjectID)
	} else {
		b.conflicts[c.ProjectID] = c
	}
	b.publishLocked(run.WatchMessage{Type: run.WatchConflictsChanged, Conflicts: &c})
}

// conflictsLocked are the snapshot's answers, by project id.
func (b *bus) conflictsLocked() []run.Conflicts {
	if len(b.conflicts) == 0 {
		return nil
	}
	out := make([]run.Conflicts, 0, len(b.conflicts))
	for _, c := range b.conflicts {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ProjectID < out[j].ProjectID })
	return out
}

// Conflicts is the radar's latest answer for a project: its overlaps and
// the suggested merge order. Before the radar's first look at it, the
// answer is empty (no overlaps, no order).
func (s *Service) Conflicts(ctx context.Context, projectID string) (run.Conflicts, error) {
	if _, err := s.store.GetProject(ctx, projectID); err != nil {
		return run.Conflicts{}, s.classify(ctx, "get project", "project", err)
	}
	empty := run.Conflicts{ProjectID: projectID, Overlaps: []run.Overlap{}, Order: []string{}}
	if s.bus.radar == nil {
		return empty, nil
	}
	if c, ok := s.bus.radar.Conflicts(projectID); ok {
		return c, nil
	}
	return empty, nil
}
