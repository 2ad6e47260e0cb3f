package service

import (
	"slices"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// PublishRemote puts a message of a remote core's bus on this one, tagged
// with its host (docs/ARCHITECTURE.md §Remote cores): the tray, the
// notifier and the window follow one bus for every host. backend/remote's
// Follower calls it with each message, after the events it announces are
// kept, so a run's state here only moves when the host's does:
//   - a snapshot (each reconnect) replaces the host's runs; only runs whose
//     status or pending prompt differ from what this bus held are
//     announced, so a link that drops and comes back repeats nothing;
//   - run.changed and session.changed pass on, tagged, with this bus's seq
//     and sessions version;
//   - workspace.changed passes on with the host (the window keeps each
//     host's workspaces apart);
//   - a doorbell rings this bus's doorbells (the window reads the events);
//   - host.changed (the Follower's: the host answers again, or not) is
//     merged into the host's record (HostsChanged) and published when its
//     reachability moved;
//   - a goodbye (the link dropped) changes nothing: the host's runs go on.
func (s *Service) PublishRemote(host string, m run.WatchMessage) {
	if host == "" {
		return
	}
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	switch m.Type {
	case run.WatchSnapshotType:
		if m.Snapshot != nil {
			b.remoteSnapshotLocked(host, m.Snapshot.Runs)
		}
	case run.WatchRunChanged:
		if m.Run != nil {
			st := *m.Run
			st.Host, st.HostName = host, b.hosts[host].Label()
			b.remoteRunLocked(&st)
		}
	case run.WatchSessionChanged:
		if m.Session != nil {
			c := *m.Session
			b.version++
			c.Host, c.SessionsVersion = host, b.version
			b.publishLocked(run.WatchMessage{Type: run.WatchSessionChanged, Session: &c})
		}
	case run.WatchWorkspaceChanged:
		// A host's worktrees, for its sessions in the window (one list per host there).
		if m.Workspace != nil {
			w := *m.Workspace
			b.publishLocked(run.WatchMessage{Type: run.WatchWorkspaceChanged, Workspace: &w, Host: host})
		}
	case run.WatchHostChanged:
		if m.HostState != nil {
			old, ok := b.hosts[host]
			if ok && old.Reachable == m.HostState.Reachable {
				return
			}
			h := old // the stored record stays
			h.Host, h.Reachable, h.Error, h.Since = host, m.HostState.Reachable, m.HostState.Error, m.HostState.Since
			b.setHostLocked(h)
		}
	case run.WatchDoorbell:
		if m.Run != nil {
			for r := range b.rings {
				r.ring(m.Run.RunID, m.Run.LastSeq)
			}
		}
	}
}

// storedHosts makes the bus's hosts those stored (list), keeping each
// one's reachability; each added, changed or removed is told.
func (b *bus) storedHosts(list []run.Host) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	stored := map[string]bool{}
	for _, rec := range list {
		stored[rec.ID] = true
		h := b.hosts[rec.ID]
		if h.Record != nil && *h.Record == rec {
			continue
		}
		h.Host, h.Record = rec.ID, &rec
		b.setHostLocked(h)
	}
	for id, h := range b.hosts {
		if h.Record != nil && !stored[id] {
			delete(b.hosts, id)
			b.publishLocked(run.WatchMessage{Type: run.WatchHostChanged, HostState: &run.HostState{Host: id, Removed: true}})
		}
	}
}

// setHostLocked holds h and tells it.
func (b *bus) setHostLocked(h run.HostState) {
	if b.hosts == nil {
		b.hosts = map[string]run.HostState{}
	}
	b.hosts[h.Host] = h
	b.publishLocked(run.WatchMessage{Type: run.WatchHostChanged, HostState: &h})
}

func (b *bus) hostsLocked() []run.HostState {
	if len(b.hosts) == 0 {
		return nil
	}
	out := make([]run.HostState, 0, len(b.hosts))
	for _, h := range b.hosts {
		out = append(out, h)
	}
	slices.SortFunc(out, func(a, c run.HostState) int { return strings.Compare(a.Host, c.Host) })
	return out
}

// remoteRunLocked holds or ends a remote run's state and announces it
// when its status or prompt moved.
func (b *bus) remoteRunLocked(st *run.RunState) {
	old := b.runs[st.RunID]
	if st.Status.Terminal() {
		if b.ended[st.RunID] {
			return // announced already (a replay after a reconnect)
		}
		b.endLocked(st.RunID)
		b.runChangedLocked(st)
		return
	}
	if old != nil && sameShown(old, st) {
		*old = copyState(st) // its last_seq and times, quietly
		return
	}
	c := copyState(st)
	b.runs[st.RunID] = &c
	b.runChangedLocked(&c)
}

// remoteSnapshotLocked makes the host's active runs those of its
// snapshot. A run of the host held here but not in its snapshot ended
// while nobody followed; the Follower announces its end (a run.changed it
// reads from the host) before the snapshot, so what is left is dropped.
func (b *bus) remoteSnapshotLocked(host string, runs []run.RunState) {
	live := map[string]bool{}
	for _, r := range runs {
		st := r
		st.Host, st.HostName = host, b.hosts[host].Label()
		live[st.RunID] = true
		b.remoteRunLocked(&st)
	}
	for id, st := range b.runs {
		if st.Host == host && !live[id] {
			delete(b.runs, id)
		}
	}
}

// sameShown: what a person sees of the run (its status and its prompt)
// did not move.
func sameShown(a, b *run.RunState) bool {
	if a.Status != b.Status || (a.Pending == nil) != (b.Pending == nil) {
		return false
	}
	if a.Pending == nil {
		return true
	}
	p, q := a.Pending, b.Pending
	return p.Kind == q.Kind && p.ID == q.ID && p.Title == q.Title && p.Command == q.Command &&
		slices.Equal(p.Options, q.Options)
}
