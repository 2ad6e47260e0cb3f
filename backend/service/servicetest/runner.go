package servicetest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Start creates a running run with its user and assistant messages and
// appends run.started and message.user. The same ClientRequestID gives the
// same run; with another message, a conflict.
func (m *Mem) Start(_ context.Context, req run.StartRequest) (run.StartResult, error) {
	m.tapMu.Lock()
	defer m.tapMu.Unlock()
	var evs []run.Event
	defer func() { m.emit(evs...) }()
	m.mu.Lock()
	defer m.mu.Unlock()
	ses, ok := m.sessions[req.SessionID]
	if !ok {
		return run.StartResult{}, notFound("session", req.SessionID)
	}
	if id, ok := m.requests[req.ClientRequestID]; ok {
		r := m.runs[id]
		for _, msg := range m.messages[r.SessionID] {
			if msg.ID == r.UserMessageID && msg.Content != req.Message {
				return run.StartResult{}, fmt.Errorf("request %q: %w", req.ClientRequestID, service.ErrConflict)
			}
		}
		return result(r), nil
	}
	now := time.Now().UTC()
	r := &run.Run{ID: m.id("run"), SessionID: ses.ID, ProjectID: ses.ProjectID, Agent: ses.Agent,
		Status: run.StatusRunning, CreatedAt: now, ActiveControls: []string{"cancel"}}
	r.UserMessageID, r.AssistantMessageID = m.id("msg"), m.id("msg")
	m.messages[ses.ID] = append(m.messages[ses.ID],
		run.Message{ID: r.UserMessageID, SessionID: ses.ID, Role: run.RoleUser, Content: req.Message, CreatedAt: now},
		run.Message{ID: r.AssistantMessageID, SessionID: ses.ID, Role: run.RoleAssistant, RunID: r.ID, CreatedAt: now})
	m.runs[r.ID] = r
	m.requests[req.ClientRequestID] = r.ID
	evs = append(evs, m.appendLocked(r, run.EventRunStarted, run.RunStarted{Agent: ses.Agent}),
		m.appendLocked(r, run.EventMessageUser, run.MessageUser{MessageID: r.UserMessageID, Text: req.Message}))
	return result(r), nil
}

func result(r *run.Run) run.StartResult {
	return run.StartResult{RunID: r.ID, SessionID: r.SessionID, UserMessageID: r.UserMessageID,
		AssistantMessageID: r.AssistantMessageID, Status: r.Status}
}

// AddRun creates a session-less running run directly (for event tests).
func (m *Mem) AddRun(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.runs[id] = &run.Run{ID: id, SessionID: "ses_x", Status: run.StatusRunning, CreatedAt: time.Now().UTC()}
}

// Append commits one event and pushes it to the run's watchers. A "done"
// ends the run with payload.Status.
func (m *Mem) Append(runID string, t run.EventType, payload any) run.Event {
	m.tapMu.Lock()
	defer m.tapMu.Unlock()
	m.mu.Lock()
	r, ok := m.runs[runID]
	if !ok {
		m.mu.Unlock()
		panic("servicetest: append to unknown run " + runID)
	}
	ev := m.appendLocked(r, t, payload)
	m.mu.Unlock()
	m.emit(ev)
	return ev
}

// TapEvents installs the event tap (service.EventTapper), called after
// each append, in order, without the Mem's lock held (as the supervisor
// calls it after the commit).
func (m *Mem) TapEvents(tap func(run.Event)) {
	m.mu.Lock()
	m.tap = tap
	m.mu.Unlock()
}

func (m *Mem) emit(evs ...run.Event) {
	m.mu.Lock()
	tap := m.tap
	m.mu.Unlock()
	if tap == nil {
		return
	}
	for _, ev := range evs {
		tap(ev)
	}
}

func (m *Mem) appendLocked(r *run.Run, t run.EventType, payload any) run.Event {
	if r.Terminal {
		panic("servicetest: append after done on " + r.ID)
	}
	b, err := json.Marshal(payload)
	if err != nil {
		panic(err)
	}
	seq := int64(len(m.events[r.ID]) + 1)
	ev := run.Event{EventID: run.EventID(r.ID, seq), Seq: seq, RunID: r.ID, SessionID: r.SessionID,
		Type: t, CreatedAt: run.UnixSeconds(time.Now()), Terminal: t == run.EventDone, Payload: b}
	m.events[r.ID] = append(m.events[r.ID], ev)
	r.LastSeq = seq
	derive(r, ev)
	if t == run.EventDone {
		r.Terminal = true // its status came from run.Next
		r.ActiveControls = nil
	}
	for w := range m.watchers[r.ID] {
		m.pushLocked(r.ID, w, ev)
	}
	return ev
}

// pushLocked never blocks: a full watcher is dropped, as the real fan-out
// drops a client that falls behind.
func (m *Mem) pushLocked(runID string, w *watcher, ev run.Event) {
	if w.closed {
		return
	}
	select {
	case w.ch <- ev:
		if ev.Terminal {
			m.closeLocked(runID, w)
		}
	default:
		m.closeLocked(runID, w)
	}
}

func (m *Mem) closeLocked(runID string, w *watcher) {
	if !w.closed {
		w.closed = true
		close(w.ch)
		delete(m.watchers[runID], w)
	}
}

// Watch registers the live subscriber and snapshots the journal under one
// lock, so nothing is missed or repeated at the seam.
func (m *Mem) Watch(ctx context.Context, runID string, after int64) (<-chan run.Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.runs[runID]; !ok {
		return nil, notFound("run", runID)
	}
	size := m.WatchBuffer
	if size <= 0 {
		size = 64
	}
	evs := m.events[runID]
	after = min(max(after, 0), int64(len(evs)))
	backlog := evs[after:]
	w := &watcher{ch: make(chan run.Event, size+len(backlog))}
	for _, ev := range backlog {
		w.ch <- ev
	}
	if len(backlog) > 0 && backlog[len(backlog)-1].Terminal || m.runs[runID].Terminal {
		w.closed = true
		close(w.ch)
		return w.ch, nil
	}
	if m.watchers[runID] == nil {
		m.watchers[runID] = map[*watcher]struct{}{}
	}
	m.watchers[runID][w] = struct{}{}
	go func() {
		<-ctx.Done()
		m.mu.Lock()
		m.closeLocked(runID, w)
		m.mu.Unlock()
	}()
	return w.ch, nil
}

// Watchers counts live subscriptions of a run.
func (m *Mem) Watchers(runID string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.watchers[runID])
}

func notActive() (run.ControlResult, error) {
	return run.ControlResult{Status: run.ControlNotActive, Message: "nothing to do"}, nil
}

func (m *Mem) Cancel(ctx context.Context, runID string) (run.ControlResult, error) {
	if m.CancelFn != nil {
		return m.CancelFn(ctx, runID)
	}
	return notActive()
}

// ForceCancel cancels as Cancel does: Mem has no agent process to kill.
func (m *Mem) ForceCancel(ctx context.Context, runID string) (run.ControlResult, error) {
	return m.Cancel(ctx, runID)
}

// Resume answers through ResumeFn when set; Mem parks no runs itself.
func (m *Mem) Resume(ctx context.Context, runID string) (run.ControlResult, error) {
	if m.ResumeFn != nil {
		return m.ResumeFn(ctx, runID)
	}
	return notActive()
}

// RunLog: Mem keeps no log per run.
func (m *Mem) RunLog(context.Context, string) (string, error) { return "", nil }

// RetireWarm and RetireWarmSession: Mem keeps no warm agents.
func (m *Mem) RetireWarm(context.Context, string) int         { return 0 }
func (m *Mem) RetireWarmSession(context.Context, string) bool { return false }

func (m *Mem) Approve(ctx context.Context, runID, id, choice string) (run.ControlResult, error) {
	if m.ApproveFn != nil {
		return m.ApproveFn(ctx, runID, id, choice)
	}
	return notActive()
}

func (m *Mem) Clarify(ctx context.Context, runID, id, answer string) (run.ControlResult, error) {
	if m.ClarifyFn != nil {
		return m.ClarifyFn(ctx, runID, id, answer)
	}
	return notActive()
}

func (m *Mem) Queue(ctx context.Context, runID, message, clientRequestID string) (run.ControlResult, error) {
	if m.QueueFn != nil {
		return m.QueueFn(ctx, runID, message, clientRequestID)
	}
	return notActive()
}

func (m *Mem) SetConfig(ctx context.Context, runID, id, value string) (run.ControlResult, error) {
	if m.SetConfigFn != nil {
		return m.SetConfigFn(ctx, runID, id, value)
	}
	return notActive()
}

func (m *Mem) SetModel(ctx context.Context, runID, model string) (run.ControlResult, error) {
	if m.SetModelFn != nil {
		return m.SetModelFn(ctx, runID, model)
	}
	return run.ControlResult{Status: run.ControlUnsupported, Message: "this agent cannot switch models"}, nil
}

// derive moves the run's row as the journal does: by run.Next.
func derive(r *run.Run, ev run.Event) {
	next := run.Next(run.State{Status: r.Status, PendingApprovalID: r.PendingApprovalID, PendingClarifyID: r.PendingClarifyID}, ev.Type, ev.Payload)
	r.Status, r.PendingApprovalID, r.PendingClarifyID = next.Status, next.PendingApprovalID, next.PendingClarifyID
}
