package service

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/fanout"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The watch bus (docs/ARCHITECTURE.md "The watch bus"): the service is the
// one owner of "what is active, what needs a person, what changed", like
// Tailscale's ipnlocal backend. Its state is fed by
//   - the Runner's event tap: every event of every run the data dir's one
//     supervisor follows, pushed from memory after its commit, and
//   - the service's own mutations (runs started, sessions created, renamed,
//     archived or deleted, projects, agent health re-checks).
// A watcher's snapshot is built under the same lock that registers it, and
// every change is published under that lock too, so a watcher sees each
// change exactly once, either in its snapshot or as a message after it.

// DefaultWatchBuffer is how many messages may wait for one watcher before
// it is considered behind and said goodbye to.
const DefaultWatchBuffer = 256

// Goodbye reasons.
const (
	GoodbyeLagging  = "lagging"  // the watcher fell behind: reconnect for a fresh snapshot
	GoodbyeShutdown = "shutdown" // the service is closing
)

// EventTapper is implemented by a Runner that can report every live event
// of every run it follows (the supervisor). The bus installs its tap once.
// tap must be called in seq order per run and must not be called with
// locks held that a Store read needs.
type EventTapper interface {
	TapEvents(tap func(ev run.Event))
}

type bus struct {
	s *Service

	mu      sync.Mutex
	seq     int64
	loaded  bool
	closed  bool
	runs    map[string]*run.RunState // the active runs
	ended   map[string]bool          // runs seen ending (never re-added from a stale read)
	version int64                    // sessions version
	// fan is the watchers' fan-out (backend/fanout), published to under mu
	// so that a snapshot and the messages after it never overlap or gap.
	fan   *fanout.Hub[run.WatchMessage]
	rings map[*ringer]struct{}
	// radar hears the runs' file changes; conflicts are its answers with
	// an overlap, by project (radar.go, docs/ARCHITECTURE.md §Conflict radar).
	radar     Radar
	conflicts map[string]run.Conflicts
	// hosts: the remote hosts' reachability (watch_remote.go).
	hosts map[string]run.HostState
}

type ringer struct{ ring func(runID string, seq int64) }

func newBus(s *Service, buffer int) *bus {
	if buffer <= 2 {
		buffer = DefaultWatchBuffer
	}
	// Of a watcher's buffer, one message is the one its pump holds and one
	// is the goodbye: the rest may wait in its queue.
	return &bus{s: s, runs: map[string]*run.RunState{}, ended: map[string]bool{},
		fan: fanout.New(messageSeq, 0, buffer-2), rings: map[*ringer]struct{}{},
		// Starts from the clock so it differs across restarts; in ms so a
		// JavaScript number holds it exactly (ns would exceed 2^53).
		version: time.Now().UnixMilli()}
}

// Watch subscribes to the watch bus: the first message is the snapshot;
// the channel closes after a goodbye (the watcher fell behind, or the
// service closed) or when ctx ends. Never blocks the publishers.
func (s *Service) Watch(ctx context.Context) (<-chan run.WatchMessage, error) {
	b := s.bus
	if err := b.load(ctx); err != nil {
		return nil, err
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, &Error{Code: CodeUnavailable, Message: "shutting down"}
	}
	snap := run.WatchMessage{Seq: b.seq, Type: run.WatchSnapshotType, Snapshot: b.snapshotLocked()}
	sub, _, err := b.fan.Subscribe()
	b.mu.Unlock()
	if err != nil {
		return nil, &Error{Code: CodeUnavailable, Message: "shutting down"}
	}
	out := make(chan run.WatchMessage)
	go b.pump(ctx, sub, snap, out)
	return out, nil
}

func messageSeq(m run.WatchMessage) int64 { return m.Seq }

// pump hands one watcher its snapshot, then what the fan-out queued for
// it, then a goodbye when it fell behind (lagging) or the bus closed
// (shutdown); the channel closes after it, or when ctx ends.
func (b *bus) pump(ctx context.Context, sub *fanout.Sub[run.WatchMessage], first run.WatchMessage, out chan<- run.WatchMessage) {
	defer close(out)
	defer sub.Cancel()
	send := func(m run.WatchMessage) bool {
		select {
		case out <- m:
			return true
		case <-ctx.Done():
			return false
		}
	}
	if !send(first) {
		return
	}
	var batch []run.WatchMessage
	for {
		msgs, end := sub.Next(ctx, batch)
		for _, m := range msgs {
			if !send(m) {
				return
			}
		}
		batch = msgs
		if end == nil {
			continue
		}
		reason := GoodbyeShutdown
		switch {
		case fanout.IsDropped(end):
			reason = GoodbyeLagging
		case end != fanout.ErrClosed:
			return // ctx ended
		}
		send(run.WatchMessage{Seq: b.fan.Last(), Type: run.WatchGoodbye, Reason: reason})
		return
	}
}

// Snapshot returns the bus state now (GET /api/watch as one JSON page).
func (s *Service) Snapshot(ctx context.Context) (run.WatchMessage, error) {
	b := s.bus
	if err := b.load(ctx); err != nil {
		return run.WatchMessage{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return run.WatchMessage{Seq: b.seq, Type: run.WatchSnapshotType, Snapshot: b.snapshotLocked()}, nil
}

// Rings calls ring(run, seq) for every live event of every run until ctx
// ends: the source of the desktop window's doorbells. ring is called with
// the bus lock held, in seq order per run, and must not block.
func (s *Service) Rings(ctx context.Context, ring func(runID string, seq int64)) {
	b := s.bus
	r := &ringer{ring: ring}
	b.mu.Lock()
	b.rings[r] = struct{}{}
	b.mu.Unlock()
	<-ctx.Done()
	b.mu.Lock()
	delete(b.rings, r)
	b.mu.Unlock()
}

// CloseWatchers says goodbye to every watcher; later Watch calls fail.
func (s *Service) CloseWatchers() {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.fan.Close()
}

func (b *bus) snapshotLocked() *run.WatchSnapshot {
	snap := &run.WatchSnapshot{Runs: make([]run.RunState, 0, len(b.runs)), SessionsVersion: b.version,
		Conflicts: b.conflictsLocked(), Hosts: b.hostsLocked()}
	for _, st := range b.runs {
		snap.Runs = append(snap.Runs, copyState(st))
	}
	sort.Slice(snap.Runs, func(i, j int) bool {
		a, c := snap.Runs[i], snap.Runs[j]
		if !a.CreatedAt.Equal(c.CreatedAt) {
			return a.CreatedAt.Before(c.CreatedAt)
		}
		return a.RunID < c.RunID
	})
	return snap
}

func copyState(st *run.RunState) run.RunState {
	c := *st
	if st.Pending != nil {
		p := *st.Pending
		p.Options = append([]run.ApprovalOption(nil), p.Options...)
		c.Pending = &p
	}
	return c
}

// publishLocked sends m (with the next bus seq) to every watcher; one
// that fell behind is dropped by the fan-out and its pump says goodbye.
func (b *bus) publishLocked(m run.WatchMessage) {
	b.seq++
	m.Seq = b.seq
	b.fan.Publish(m)
}

func (b *bus) runChangedLocked(st *run.RunState) {
	c := copyState(st)
	b.publishLocked(run.WatchMessage{Type: run.WatchRunChanged, Run: &c})
}

func (b *bus) sessionChangedLocked(kind run.SessionChangeKind, sessionID, projectID string) {
	b.version++
	b.publishLocked(run.WatchMessage{Type: run.WatchSessionChanged, Session: &run.SessionChange{
		Kind: kind, SessionID: sessionID, ProjectID: projectID, SessionsVersion: b.version}})
}

// load reads the active runs once, with the bus lock held so that no event
// is applied to a half-built state; events applied after it skip what the
// read already reflects (seq ≤ LastSeq).
func (b *bus) load(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.loaded {
		return nil
	}
	rs, err := b.s.store.ListRuns(ctx, run.RunFilter{Active: true, Limit: MaxPage})
	if err != nil {
		return b.s.classify(ctx, "list active runs", "run", err)
	}
	for _, r := range rs {
		if r.Terminal || b.ended[r.ID] || b.runs[r.ID] != nil {
			continue
		}
		st := b.s.stateOf(ctx, r)
		st.Pending = b.s.pendingFromJournal(ctx, r)
		b.runs[r.ID] = &st
	}
	b.loaded = true
	return nil
}

// stateOf is the bus state of r (its session's title read from the store).
func (s *Service) stateOf(ctx context.Context, r run.Run) run.RunState {
	st := run.RunState{RunID: r.ID, SessionID: r.SessionID, ProjectID: r.ProjectID, Agent: r.Agent,
		Status: r.Status, LastSeq: r.LastSeq, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt,
		EndedAt: r.EndedAt, Error: r.Error, AgentName: s.agents.DisplayName(ctx, r.Agent), ResumesAt: r.ResumesAt}
	if ses, err := s.store.GetSession(ctx, r.SessionID); err == nil {
		st.SessionTitle = ses.Title
		if st.ProjectID == "" {
			st.ProjectID = ses.ProjectID
		}
		st.Workspace = s.workspaceName(ctx, ses)
	}
	return st
}

// pendingFromJournal finds the request of r's pending approval or clarify
// (only at load: live ones come from the events themselves).
func (s *Service) pendingFromJournal(ctx context.Context, r run.Run) *run.PendingPrompt {
	if r.PendingApprovalID == "" && r.PendingClarifyID == "" {
		return nil
	}
	var found *run.PendingPrompt
	for after := int64(0); ; {
		evs, err := s.store.Events(ctx, r.ID, after, s.follow.PageSize)
		if err != nil || len(evs) == 0 {
			return found
		}
		for _, ev := range evs {
			if p := pendingOf(ev); p != nil &&
				((p.Kind == run.PendingApproval && p.ID == r.PendingApprovalID) ||
					(p.Kind == run.PendingClarify && p.ID == r.PendingClarifyID)) {
				found = p
			}
			after = ev.Seq
		}
	}
}

// pendingOf is the prompt an approval.requested or clarify.requested event
// asks, with the agent's own options.
func pendingOf(ev run.Event) *run.PendingPrompt {
	switch ev.Type {
	case run.EventApprovalRequest:
		var p run.ApprovalRequested
		if json.Unmarshal(ev.Payload, &p) != nil {
			return nil
		}
		return &run.PendingPrompt{Kind: run.PendingApproval, ID: p.ApprovalID, Title: p.Title,
			Command: p.Command, Options: p.Options, Unexplained: p.Unexplained}
	case run.EventClarifyRequest:
		var p run.ClarifyRequested
		if json.Unmarshal(ev.Payload, &p) != nil {
			return nil
		}
		pp := &run.PendingPrompt{Kind: run.PendingClarify, ID: p.ClarifyID, Title: p.Question}
		for _, c := range p.Choices {
			pp.Options = append(pp.Options, run.ApprovalOption{ID: c, Label: c})
		}
		return pp
	}
	return nil
}
