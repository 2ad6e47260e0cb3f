package service

import (
	"context"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// ModelLister is an Agents that can ask an agent's model server for its
// models without a run (an OpenAI-compatible server's GET /models), for the
// session header's model picker (docs/ARCHITECTURE.md §Model picker).
// listed is false for an agent with no such list; err's text is logged,
// never shown.
type ModelLister interface {
	Models(ctx context.Context, agent string) (models []run.ModelOption, listed bool, err error)
}

// AgentModels is GET /api/agents/{name}/models.
type AgentModels struct {
	Agent string `json:"agent"`
	// Listed says the agent's server lists models; false means the picker
	// has only what the agent reports during a run.
	Listed bool              `json:"listed"`
	Models []run.ModelOption `json:"models"`
	// Message says in plain words why no list came (server unreachable).
	Message string `json:"message,omitempty"`
}

// listModelsTimeout bounds one ask of a model server.
const listModelsTimeout = 5 * time.Second

// msgModelsUnreachable is shown when the agent's server did not list its
// models; the cause is in the log.
const msgModelsUnreachable = "Could not reach the agent's server to list its models — check that it is running and its URL in the agent's settings."

// modelsCache keeps each agent's list like the agents' health (healthCache):
// until an explicit refresh, or until anything makes the health stale (a
// settings change, a failed run), never asked again per read.
type modelsCache struct {
	mu      sync.Mutex
	entries map[string]modelsEntry
}

type modelsEntry struct {
	v   AgentModels
	gen int64
}

// AgentModels lists agent's models from its server, as last asked;
// refresh asks again.
func (s *Service) AgentModels(ctx context.Context, agent string, refresh bool) (AgentModels, error) {
	if s.agents == nil || !s.agents.Known(agent) {
		return AgentModels{}, notFound("agent")
	}
	out := AgentModels{Agent: agent, Models: []run.ModelOption{}}
	l, ok := s.agents.(ModelLister)
	if !ok {
		return out, nil
	}
	gen := s.health.stale.Load()
	s.models.mu.Lock()
	defer s.models.mu.Unlock() // one ask at a time, as health checks
	if e, ok := s.models.entries[agent]; ok && !refresh && e.gen == gen {
		return e.v, nil
	}
	lctx, cancel := context.WithTimeout(ctx, listModelsTimeout)
	defer cancel()
	ms, listed, err := l.Models(lctx, agent)
	if ctx.Err() != nil {
		return AgentModels{}, s.classify(ctx, "list models", "agent", ctx.Err())
	}
	out.Listed = listed
	switch {
	case err != nil:
		s.log.Warn("list models", "agent", agent, "err", err)
		out.Message = msgModelsUnreachable
	case len(ms) > 0:
		out.Models = ms
	}
	if s.models.entries == nil {
		s.models.entries = map[string]modelsEntry{}
	}
	s.models.entries[agent] = modelsEntry{v: out, gen: gen}
	return out, nil
}
