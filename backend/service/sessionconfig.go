package service

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Session config options (docs/ARCHITECTURE.md §Session config options):
// a session keeps a person's choices of its agent's settings for its next
// runs; between runs the header sets them with PATCH /api/sessions/{id}
// {config: {id: value}}, and before a session's first run it shows the
// agent's settings for a new session as last reported on this machine.

// maxConfigChoices bounds the choices one update may carry: agents offer
// a handful of settings.
const maxConfigChoices = 64

// checkConfigChoices refuses choices that cannot be an agent's setting: an
// empty or overlong id, a value with line breaks. "" forgets a choice.
func checkConfigChoices(c map[string]string) error {
	if len(c) > maxConfigChoices {
		return badRequest("config has too many settings")
	}
	for id, v := range c {
		if id == "" || len(id) > MaxNameBytes || !utf8.ValidString(id) || strings.ContainsAny(id, "\n\r\x00") {
			return badRequest("config must name each setting by its id")
		}
		if len(v) > MaxNameBytes || !utf8.ValidString(v) || strings.ContainsAny(v, "\n\r\x00") {
			return badRequest("config's value for %q must be one of the setting's choices", id)
		}
	}
	return nil
}

// AgentConfigReader is a Store that remembers each agent's settings for a
// new session (backend/journal's Store does).
type AgentConfigReader interface {
	AgentConfig(ctx context.Context, agent string) (run.AgentDefaults, error)
}

// AgentConfig is GET /api/agents/{name}/config: the agent's settings,
// model and models as a new session of it last reported them on this
// machine — what a session starts with unless it keeps a choice. The
// lists are empty when no session of the agent reported any yet.
type AgentConfig struct {
	Agent string `json:"agent"`
	run.AgentDefaults
}

// AgentConfig answers the agent's remembered settings for a new session.
// The journal keeps them (one row per agent, written when a run reports
// them), so they survive a restart and need no cache of their own.
func (s *Service) AgentConfig(ctx context.Context, agent string) (AgentConfig, error) {
	if s.agents == nil || !s.agents.Known(agent) {
		return AgentConfig{}, notFound("agent")
	}
	out := AgentConfig{Agent: agent}
	if r, ok := s.store.(AgentConfigReader); ok {
		d, err := r.AgentConfig(ctx, agent)
		if err != nil {
			return AgentConfig{}, s.classify(ctx, "read agent settings", "agent", err)
		}
		out.AgentDefaults = d
	}
	if out.Options == nil {
		out.Options = []run.ConfigOption{}
	}
	if out.Models == nil {
		out.Models = []run.ModelOption{}
	}
	return out, nil
}
