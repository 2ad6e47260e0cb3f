package stack

import (
	"context"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/datadir"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

type adapterConfig = adapter.Config

// The journal's Store is each consumer's store as it is, with no adapter
// in between (docs/ARCHITECTURE.md §Journal).
var (
	_ service.Store       = (*journal.Store)(nil)
	_ service.Porter      = (*journal.Store)(nil)
	_ supervisor.Store    = (*journal.Store)(nil)
	_ service.Runner      = (*supervisor.Supervisor)(nil)
	_ service.Agents      = Agents{}
	_ service.ModelLister = Agents{}
	_ service.Guard       = (*datadir.Guard)(nil)
)

// Agents adapts the agent catalogue (the built-in agents and those a
// person added, agents.Catalogue) to service.Agents. Health comes from
// agents.Discover, the one discovery path: all agents at once, each
// bounded, with each agent's config resolved from the person's settings.
type Agents struct {
	Registry *adapter.Registry
	Setting  agents.SettingFunc
	// Settings reads every setting, where the added agents are kept.
	Settings agents.SettingsFunc
}

func (a Agents) catalogue() agents.Catalogue {
	return agents.Catalogue{Registry: a.Registry, Settings: a.Settings}
}

// knownBound bounds the settings read behind Known, which has no context.
const knownBound = 5 * time.Second

func (a Agents) Known(name string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), knownBound)
	defer cancel()
	_, err := a.catalogue().Get(ctx, name)
	return err == nil
}

// BuiltIn reports whether name is one of this build's own agents (which
// cannot be removed).
func (a Agents) BuiltIn(name string) bool { return a.catalogue().BuiltIn(name) }

// DisplayName is the one lookup of the name people see for an agent.
func (a Agents) DisplayName(ctx context.Context, name string) string {
	return a.catalogue().DisplayName(ctx, name)
}

// DisplayNames maps every agent, built in or added, to its name.
func (a Agents) DisplayNames(ctx context.Context) (map[string]string, error) {
	reg, err := a.catalogue().All(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, n := range reg.Names() {
		if ad, err := reg.Get(n); err == nil {
			out[n] = ad.DisplayName()
		}
	}
	return out, nil
}

func (a Agents) List(ctx context.Context) ([]service.AgentInfo, error) {
	reg, err := a.catalogue().All(ctx)
	if err != nil {
		return nil, err
	}
	sts := agents.Discover(ctx, reg, agents.ResolveWith(a.Setting))
	out := make([]service.AgentInfo, 0, len(sts))
	for _, s := range sts {
		if s.Name == "" {
			continue // unregistered while listing
		}
		h := s.Health
		out = append(out, service.AgentInfo{Name: s.Name, DisplayName: s.DisplayName, Capabilities: s.Capabilities,
			Installed: h.Installed, OK: h.OK, Version: h.Version, Path: h.Path, Message: h.Message,
			Added: !a.Registry.Has(s.Name)})
	}
	return out, nil
}

// modelLister is an adapter whose server lists its models without a run
// (openai.Adapter: GET /models).
type modelLister interface {
	ListModels(ctx context.Context, cfg adapter.Config) ([]run.ModelOption, error)
}

// Models implements service.ModelLister over the adapters that list their
// models, with the agent's settings (base URL, API key) applied.
func (a Agents) Models(ctx context.Context, name string) ([]run.ModelOption, bool, error) {
	ad, err := a.catalogue().Get(ctx, name)
	if err != nil {
		return nil, false, err
	}
	l, ok := ad.(modelLister)
	if !ok {
		return nil, false, nil
	}
	cfg, err := agents.Resolve(ctx, name, a.Setting)
	if err != nil {
		return nil, true, err
	}
	ms, err := l.ListModels(ctx, cfg)
	return ms, true, err
}
