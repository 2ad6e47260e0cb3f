package notify_test

import (
	"context"
	"encoding/json"
	"reflect"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// serviceSource stands in for the watch bus (service.Service.Watch) over a
// real service until that lands: it reads the active runs and their
// pending prompts and sends the snapshot, then each change, in the bus's
// message types. Only this test reads it; the product never polls.
type serviceSource struct {
	svc *service.Service
}

func (s serviceSource) Watch(ctx context.Context) (<-chan run.WatchMessage, error) {
	ch := make(chan run.WatchMessage, 64)
	go func() {
		defer close(ch)
		known := map[string]run.RunState{}
		first := true
		for ctx.Err() == nil {
			now := s.read(ctx)
			if first {
				snap := &run.WatchSnapshot{}
				for _, r := range now {
					snap.Runs = append(snap.Runs, r)
				}
				ch <- run.WatchMessage{Type: run.WatchSnapshotType, Snapshot: snap}
				first = false
			} else {
				for id, r := range now {
					if !reflect.DeepEqual(known[id], r) {
						rc := r
						ch <- run.WatchMessage{Type: run.WatchRunChanged, Run: &rc}
					}
				}
				for id := range known {
					if _, ok := now[id]; !ok {
						if r, err := s.svc.Run(ctx, id); err == nil {
							rs := s.state(ctx, r)
							ch <- run.WatchMessage{Type: run.WatchRunChanged, Run: &rs}
						}
					}
				}
			}
			known = now
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	return ch, nil
}

func (s serviceSource) read(ctx context.Context) map[string]run.RunState {
	out := map[string]run.RunState{}
	rs, err := s.svc.Runs(ctx, service.RunFilter{ActiveOnly: true})
	if err != nil {
		return out
	}
	for _, r := range rs {
		out[r.ID] = s.state(ctx, r)
	}
	return out
}

func (s serviceSource) state(ctx context.Context, r run.Run) run.RunState {
	var title string
	if d, err := s.svc.Session(ctx, r.SessionID); err == nil {
		title = d.Title
	}
	st := run.RunState{RunID: r.ID, SessionID: r.SessionID, Agent: r.Agent, SessionTitle: title,
		Status: r.Status, CreatedAt: r.CreatedAt, Error: r.Error}
	if r.PendingApprovalID == "" {
		return st
	}
	page, err := s.svc.Events(ctx, r.ID, 0, 1000)
	if err != nil {
		return st
	}
	for _, ev := range page.Events {
		var a run.ApprovalRequested
		if ev.Type == run.EventApprovalRequest && json.Unmarshal(ev.Payload, &a) == nil && a.ApprovalID == r.PendingApprovalID {
			st.Pending = &run.PendingPrompt{Kind: run.PendingApproval, ID: a.ApprovalID, Title: a.Title, Command: a.Command, Options: a.Options}
		}
	}
	return st
}
