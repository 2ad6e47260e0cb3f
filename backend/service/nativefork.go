package service

import (
	"context"
	"encoding/json"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Native forks (docs/ARCHITECTURE.md §Checkpoints): a fork's agent forks
// its own session where checkpoints.DecideFork says that gives exactly
// the conversation before the forked turn; the handover stays the
// fallback the shim gives where the agent turns out not to fork.

// nativeFork is how the conversation of src before run runID's turn
// reaches a fork, and the native fork to ask for (nil unless native).
func nativeFork(src run.Session, msgs []run.Message, runID string) (checkpoints.ForkWay, *run.NativeFork) {
	f := checkpoints.ForkFacts{Native: src.NativeSessionID, AtTurn: checkpoints.ForksAtTurn(src.Agent)}
	seen, answered := map[string]bool{}, map[string]bool{}
	next, later := "", false
	for _, m := range msgs {
		if m.RunID == runID && runID != "" {
			later = true
		}
		switch {
		case m.Role == run.RoleUser && !seen[m.RunID]:
			seen[m.RunID] = true
			if !later {
				f.Before++
			} else if m.RunID == runID {
				next = m.Content
			}
		case m.Role != run.RoleUser && later && m.Content != "" && !answered[m.RunID]:
			// Its answer was recorded: the turn reached the agent.
			answered[m.RunID] = true
			f.Later++
		}
	}
	way := checkpoints.DecideFork(f)
	if way != checkpoints.ForkNative {
		return way, nil
	}
	return way, &run.NativeFork{From: src.NativeSessionID, Turns: f.Before, All: f.Later == 0, Next: next}
}

// forkOf is the native fork a session's next run asks its agent for: the
// one recorded at the fork, until the session has a native session or a
// message of its own.
func (s *Service) forkOf(ctx context.Context, ses run.Session) *run.NativeFork {
	if s.checkpoints == nil || ses.NativeSessionID != "" {
		return nil
	}
	raw, err := s.checkpoints.SessionFork(ctx, ses.ID)
	if err != nil || raw == "" {
		return nil
	}
	if msgs, err := s.store.Messages(ctx, ses.ID); err != nil || len(msgs) > 0 {
		return nil
	}
	var f run.NativeFork
	if err := json.Unmarshal([]byte(raw), &f); err != nil || f.From == "" {
		s.log.Warn("service: unreadable native fork; the conversation is handed over", "session", ses.ID, "err", err)
		return nil
	}
	return &f
}
