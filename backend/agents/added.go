package agents

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/acp"
	"github.com/hermesdesk/hermesdesk/backend/adapter/command"
	"github.com/hermesdesk/hermesdesk/backend/adapter/openai"
	"github.com/hermesdesk/hermesdesk/backend/agents/agentdef"
)

// Agents a person added (docs/ARCHITECTURE.md §Agents are data) are the adapter of their kind under their own id and name, so every
// message an adapter words ("X is not installed", "X did not answer")
// carries the person's name for it.

// AddedAdapter returns the adapter for the agent id kept as cfg (a setting
// holding a kind, see agentdef).
func AddedAdapter(id string, cfg adapter.Config) (adapter.Adapter, error) {
	name := cfg.Name
	if name == "" {
		name = id
	}
	switch cfg.Kind {
	case agentdef.KindACP:
		return acp.New(id, name, cfg.Command), nil
	case agentdef.KindCommand:
		return namedCommand{id: id, name: name}, nil
	case agentdef.KindOpenAI:
		return namedOpenAI{id: id, name: name}, nil
	}
	return nil, fmt.Errorf("agent %q has kind %q, which this version does not know: %w", id, cfg.Kind, adapter.ErrNotInstalled)
}

// namedCommand and namedOpenAI keep their adapter's methods (the openai one
// lists its server's models) under the added agent's id and name.
type namedCommand struct {
	command.Adapter
	id, name string
}

func (n namedCommand) Name() string        { return n.id }
func (n namedCommand) DisplayName() string { return n.name }

type namedOpenAI struct {
	openai.Adapter
	id, name string
}

func (n namedOpenAI) Name() string        { return n.id }
func (n namedOpenAI) DisplayName() string { return n.name }

// Lookup is the adapter that runs agent id with cfg (its resolved settings):
// a built-in one from reg, else the added agent cfg describes. The shim uses
// it with the settings the supervisor resolved into the run's spec.
func Lookup(reg *adapter.Registry, id string, cfg adapter.Config) (adapter.Adapter, error) {
	a, err := reg.Get(id)
	if err == nil || cfg.Kind == "" {
		return a, err
	}
	return AddedAdapter(id, cfg)
}

// SettingsFunc reads every setting (the journal's GetSettings).
type SettingsFunc func(ctx context.Context) (map[string]json.RawMessage, error)

// Catalogue is the one lookup of agents by id: the built-in ones and those
// a person added. Names, health and "is this an agent" all come from it.
type Catalogue struct {
	Registry *adapter.Registry
	Settings SettingsFunc
}

// All returns a registry of every agent: the built-in ones and the added.
func (c Catalogue) All(ctx context.Context) (*adapter.Registry, error) {
	reg := adapter.NewRegistry()
	for _, n := range c.Registry.Names() {
		if a, err := c.Registry.Get(n); err == nil {
			reg.Register(a)
		}
	}
	added, err := c.Added(ctx)
	for _, d := range added {
		if _, err := c.Registry.Get(d.ID); err == nil {
			continue // a built-in id: the built-in agent stays
		}
		if a, err := AddedAdapter(d.ID, d.Config()); err == nil {
			reg.Register(a)
		}
	}
	return reg, err
}

// Added lists the agents a person added.
func (c Catalogue) Added(ctx context.Context) ([]agentdef.Definition, error) {
	if c.Settings == nil {
		return nil, nil
	}
	all, err := c.Settings(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the added agents: %w", err)
	}
	return agentdef.Added(all), nil
}

// Get returns agent id's adapter.
func (c Catalogue) Get(ctx context.Context, id string) (adapter.Adapter, error) {
	if a, err := c.Registry.Get(id); err == nil {
		return a, nil
	}
	added, err := c.Added(ctx)
	if err != nil {
		return nil, err
	}
	for _, d := range added {
		if d.ID == id {
			return AddedAdapter(id, d.Config())
		}
	}
	return nil, fmt.Errorf("unknown agent %q: %w", id, adapter.ErrNotInstalled)
}

// BuiltIn reports whether id is one of this build's own agents.
func (c Catalogue) BuiltIn(id string) bool {
	_, err := c.Registry.Get(id)
	return err == nil
}

// DisplayName is the name people see for agent id: its adapter's, or the
// one the person gave it; the id itself when there is none.
func (c Catalogue) DisplayName(ctx context.Context, id string) string {
	if a, err := c.Get(ctx, id); err == nil && a.DisplayName() != "" {
		return a.DisplayName()
	}
	return id
}
