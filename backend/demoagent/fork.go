package demoagent

import (
	"context"
	"errors"

	acpsdk "github.com/coder/acp-go-sdk"
)

// ACP's unstable session/fork (Options.Fork): a new session holding a copy
// of the forked one's conversation, as an agent that forks natively does
// (docs/ARCHITECTURE.md §Checkpoints, native forks).

func (a *agent) sessionCapabilities() acpsdk.SessionCapabilities {
	if !a.forks {
		return acpsdk.SessionCapabilities{}
	}
	return acpsdk.SessionCapabilities{Fork: &acpsdk.SessionForkCapabilities{}}
}

// UnstableForkSession copies the stored session p.SessionId under a new id.
func (a *agent) UnstableForkSession(_ context.Context, p acpsdk.UnstableForkSessionRequest) (acpsdk.UnstableForkSessionResponse, error) {
	if !a.forks {
		return acpsdk.UnstableForkSessionResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionFork)
	}
	if err := a.requireAuth(); err != nil {
		return acpsdk.UnstableForkSessionResponse{}, err
	}
	src, err := a.store.load(string(p.SessionId))
	if errors.Is(err, errNoSession) {
		return acpsdk.UnstableForkSessionResponse{}, &acpsdk.RequestError{Code: -32002, Message: "Resource not found", Data: map[string]any{"sessionId": p.SessionId}}
	}
	if err != nil {
		return acpsdk.UnstableForkSessionResponse{}, err
	}
	sess := &session{ID: newSessionID(), Cwd: p.Cwd, Model: src.Model, Config: src.Config, Turns: append([]turn{}, src.Turns...)}
	if err := a.store.save(sess); err != nil {
		return acpsdk.UnstableForkSessionResponse{}, err
	}
	a.mu.Lock()
	a.sessions[sess.ID] = sess
	a.mu.Unlock()
	return acpsdk.UnstableForkSessionResponse{SessionId: acpsdk.SessionId(sess.ID), Modes: modeState()}, nil
}
