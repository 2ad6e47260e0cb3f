package service

import (
	"context"
	"encoding/json"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// What feeds the watch bus (docs/ARCHITECTURE.md "The watch bus"): the
// Runner's live events (tap) and the service's own mutations.

// maxEnded bounds the memory of runs seen ending (a guard against a stale
// read re-adding one; only reads racing with the end need it).
const maxEnded = 4096

// tap applies one committed event of any run, and rings the doorbells.
func (b *bus) tap(ev run.Event) {
	b.mu.Lock()
	for r := range b.rings {
		r.ring(ev.RunID, ev.Seq)
	}
	if !b.loaded || b.ended[ev.RunID] {
		// Not loaded: the load's read will reflect this committed event.
		b.mu.Unlock()
		return
	}
	st := b.runs[ev.RunID]
	b.mu.Unlock()
	if st == nil {
		// A run this bus has not seen yet (started by another door and
		// its creation not announced yet, or adopted): read it whole.
		b.learn(ev.RunID, &ev)
		return
	}
	b.mu.Lock()
	if st := b.runs[ev.RunID]; st != nil {
		b.radarSees(st, ev)
		b.applyLocked(st, ev)
	}
	b.mu.Unlock()
}

// learn reads a run the bus does not hold yet and announces it. hint, when
// it is the run's pending request, saves a journal scan.
func (b *bus) learn(runID string, hint *run.Event) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, err := b.s.store.GetRun(ctx, runID)
	if err != nil {
		b.s.log.Warn("watch bus: read run", "run", runID, "err", err)
		return
	}
	st := b.s.stateOf(ctx, r)
	if r.PendingApprovalID != "" || r.PendingClarifyID != "" {
		if hint != nil && hint.Seq == r.LastSeq {
			st.Pending = pendingOf(*hint)
		}
		if st.Pending == nil {
			st.Pending = b.s.pendingFromJournal(ctx, r)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.loaded || b.runs[runID] != nil || b.ended[runID] {
		return
	}
	if r.Terminal {
		b.endLocked(runID)
		b.runChangedLocked(&st)
		b.sessionChangedLocked(run.SessionActivity, st.SessionID, st.ProjectID)
		return
	}
	b.runs[runID] = &st
	b.runChangedLocked(&st)
	b.sessionChangedLocked(run.SessionActivity, st.SessionID, st.ProjectID)
}

func (b *bus) endLocked(runID string) {
	delete(b.runs, runID)
	if len(b.ended) >= maxEnded {
		clear(b.ended)
	}
	b.ended[runID] = true
}

// applyLocked moves st by ev with the one run state machine (run.Next,
// docs/ARCHITECTURE.md §Run state machine), the same the journal derives a
// run's row with, and publishes run.changed when the status or the pending
// prompt changed — never per token.
func (b *bus) applyLocked(st *run.RunState, ev run.Event) {
	if ev.Seq <= st.LastSeq {
		return // already reflected (the state was read after its commit)
	}
	st.LastSeq = ev.Seq
	at := time.Unix(0, int64(ev.CreatedAt*1e9)).UTC()
	changed := false
	if run.MovesState(ev.Type) {
		prev := stateOfRun(st)
		next := run.Next(prev, ev.Type, ev.Payload)
		if next.Status != prev.Status {
			st.Status, changed = next.Status, true
		}
		if next.ResumesAt != prev.ResumesAt {
			st.ResumesAt, changed = next.ResumesAt, true
		}
		if next.PendingApprovalID != prev.PendingApprovalID || next.PendingClarifyID != prev.PendingClarifyID {
			// A new prompt carries what the window and the notifier show
			// (its title, command and the agent's options); an answered
			// one leaves nothing.
			st.Pending, changed = nil, true
			if next.PendingApprovalID != "" || next.PendingClarifyID != "" {
				st.Pending = pendingOf(ev)
			}
		}
		if st.StartedAt == nil && next.Status == run.StatusRunning {
			st.StartedAt, changed = &at, true
		}
	}
	switch ev.Type {
	case run.EventTitleUpdated:
		// The agent names an untitled conversation (a person's title wins).
		var p run.TitleUpdated
		if json.Unmarshal(ev.Payload, &p) == nil && p.Title != "" && st.SessionTitle == "" {
			b.retitleLocked(st.SessionID, p.Title, true)
			b.sessionChangedLocked(run.SessionUpdated, st.SessionID, st.ProjectID)
		}
	case run.EventDone:
		var p run.Done
		_ = json.Unmarshal(ev.Payload, &p)
		st.Error, st.Pending, st.EndedAt = p.Error, nil, &at
		b.endLocked(st.RunID)
		b.runChangedLocked(st)
		b.sessionChangedLocked(run.SessionActivity, st.SessionID, st.ProjectID)
		if st.Status == run.StatusFailed {
			// Maybe its agent could not start: its health is stale.
			b.s.health.invalidate()
			b.publishLocked(run.WatchMessage{Type: run.WatchAgentsChanged})
		}
		return
	}
	if changed {
		b.runChangedLocked(st)
	}
}

// stateOfRun is the part of a watched run that run.Next moves.
func stateOfRun(st *run.RunState) run.State {
	s := run.State{Status: st.Status, ResumesAt: st.ResumesAt}
	if p := st.Pending; p != nil {
		if p.Kind == run.PendingClarify {
			s.PendingClarifyID = p.ID
		} else {
			s.PendingApprovalID = p.ID
		}
	}
	return s
}

// retitleLocked updates the session title the active runs carry (only
// untitled ones when onlyEmpty). Watchers learn it from session.changed.
func (b *bus) retitleLocked(sessionID, title string, onlyEmpty bool) {
	for _, st := range b.runs {
		if st.SessionID == sessionID && (!onlyEmpty || st.SessionTitle == "") {
			st.SessionTitle = title
		}
	}
}

// --- the service's own mutations ---

// runCreated announces a run this service just created (started or
// queued), before its shim's first event if possible.
func (s *Service) runCreated(runID string) {
	b := s.bus
	b.mu.Lock()
	known := !b.loaded || b.runs[runID] != nil || b.ended[runID]
	b.mu.Unlock()
	if !known {
		b.learn(runID, nil)
	}
}

// sessionChanged publishes session.changed (and moves the list version).
func (s *Service) sessionChanged(kind run.SessionChangeKind, sessionID, projectID string) {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sessionChangedLocked(kind, sessionID, projectID)
}

// sessionRetitled carries a rename to the active runs' states.
func (s *Service) sessionRetitled(ses run.Session) {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	b.retitleLocked(ses.ID, ses.Title, false)
	for _, st := range b.runs {
		if st.SessionID == ses.ID {
			b.runChangedLocked(st)
		}
	}
	b.sessionChangedLocked(run.SessionUpdated, ses.ID, ses.ProjectID)
}

// schedulesChanged publishes schedules.changed: the Schedules view's
// next and last run follow the bus, not a Refresh button.
func (s *Service) schedulesChanged() {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	b.publishLocked(run.WatchMessage{Type: run.WatchSchedulesChanged})
}

// agentsChanged publishes agents.changed after a health re-check.
func (s *Service) agentsChanged() {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	b.publishLocked(run.WatchMessage{Type: run.WatchAgentsChanged})
}
