package service

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"runtime"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/agents/agentdef"
	"github.com/hermesdesk/hermesdesk/backend/agents/registry"
)

// Agents a person adds (POST|PATCH|DELETE /api/agents; docs/ARCHITECTURE.md
// §Agents are data). Each is the one setting "agents.<id>", written in one
// statement after the whole definition is checked: a bad one is a 400
// naming the field and nothing is saved.

// AgentPatch is PATCH /api/agents/{id}: the fields given change, the others
// stay. A built-in agent takes command, args, env and base_url only.
type AgentPatch struct {
	Name    *string            `json:"name"`
	Kind    *string            `json:"kind"`
	Command *string            `json:"command"`
	Args    *[]string          `json:"args"`
	Env     *map[string]string `json:"env"`
	BaseURL *string            `json:"base_url"`
}

// definitionFields are the setting's fields a definition owns; the others
// (api_key, home, options, …) stay as they are on every change.
var definitionFields = []string{"kind", "name", "command", "env", "base_url"}

// AddAgent adds an agent under a new id.
func (s *Service) AddAgent(ctx context.Context, d agentdef.Definition) (agentdef.Definition, error) {
	s.agentDefsMu.Lock()
	defer s.agentDefsMu.Unlock()
	if err := d.Validate(s.agents.Known); err != nil {
		return agentdef.Definition{}, fieldError(err)
	}
	if err := s.checkNameFree(ctx, d.ID, d.Name); err != nil {
		return agentdef.Definition{}, err
	}
	if err := s.putAgent(ctx, d.ID, nil, d); err != nil {
		return agentdef.Definition{}, err
	}
	out, _ := agentdef.FromConfig(d.ID, d.Config())
	return out, nil
}

// UpdateAgent changes an added agent, or a built-in agent's command and
// environment.
func (s *Service) UpdateAgent(ctx context.Context, id string, p AgentPatch) (agentdef.Definition, error) {
	s.agentDefsMu.Lock()
	defer s.agentDefsMu.Unlock()
	if !s.agents.Known(id) {
		return agentdef.Definition{}, notFound("agent")
	}
	key := agentdef.SettingPrefix + id
	stored, err := s.storedObject(ctx, key)
	if err != nil {
		return agentdef.Definition{}, err
	}
	cfg, err := agentdef.Parse(mustJSON(stored))
	if err != nil {
		return agentdef.Definition{}, badRequest("%s: the stored settings are not valid; fix them in Settings first", key)
	}
	builtIn := s.agents.BuiltIn(id)
	d, added := agentdef.FromConfig(id, cfg)
	switch {
	case builtIn && p.Kind != nil:
		return agentdef.Definition{}, badRequest("kind: %s is built in; its kind cannot change", id)
	case builtIn && p.Name != nil:
		return agentdef.Definition{}, badRequest("name: %s is built in; its name cannot change", id)
	case builtIn:
		// Its launch settings, read the way a definition's are.
		cfg.Kind = agentdef.KindACP
		d, _ = agentdef.FromConfig(id, cfg)
		d.Kind = ""
	case !added:
		return agentdef.Definition{}, notFound("agent")
	}
	applyPatch(&d, p)
	check := d.Validate(nil)
	if builtIn {
		check = d.CheckLaunch()
	}
	if check != nil {
		return agentdef.Definition{}, fieldError(check)
	}
	if p.Name != nil {
		if err := s.checkNameFree(ctx, id, d.Name); err != nil {
			return agentdef.Definition{}, err
		}
	}
	if err := s.putAgent(ctx, id, stored, d); err != nil {
		return agentdef.Definition{}, err
	}
	if !builtIn {
		d, _ = agentdef.FromConfig(id, d.Config())
	}
	return d, nil
}

// RemoveAgent removes an added agent (its sessions stay, and say the agent
// is unknown when run again). A built-in agent cannot be removed.
func (s *Service) RemoveAgent(ctx context.Context, id string) error {
	s.agentDefsMu.Lock()
	defer s.agentDefsMu.Unlock()
	if s.agents.BuiltIn(id) {
		return badRequest("id: %s is built in and cannot be removed", id)
	}
	if !s.agents.Known(id) {
		return notFound("agent")
	}
	key := agentdef.SettingPrefix + id
	before, err := s.store.GetSettings(ctx)
	if err != nil {
		return s.classify(ctx, "read settings", "settings", err)
	}
	in := map[string]json.RawMessage{key: json.RawMessage("null")}
	if err := s.store.PutSettings(ctx, in); err != nil {
		return s.classify(ctx, "remove agent", "agent", err)
	}
	s.retireWarm(ctx, in, before)
	s.agentsStale()
	return nil
}

// checkDefinitionSetting holds PUT /api/settings to the same rules as
// POST /api/agents: a setting that makes an agent (it has a kind) must be a
// whole, valid definition, and a built-in agent's setting cannot take one.
func (s *Service) checkDefinitionSetting(key string, v json.RawMessage) error {
	id, ok := strings.CutPrefix(key, agentdef.SettingPrefix)
	if !ok || strings.Contains(id, ".") {
		return nil
	}
	cfg, err := agentdef.Parse(v)
	if err != nil || cfg.Kind == "" {
		return nil // checkAgentSettings has said what it had to
	}
	if s.agents.BuiltIn(id) {
		return badRequest("%s: kind: %s is built in; its kind cannot change", key, id)
	}
	d, _ := agentdef.FromConfig(id, cfg)
	if err := d.Validate(nil); err != nil {
		return badRequest("%s: %s", key, err.Error())
	}
	return nil
}

// checkNameFree refuses a name another agent is already shown by: two
// agents called alike could not be told apart anywhere
// (docs/ARCHITECTURE.md §Agents are data).
func (s *Service) checkNameFree(ctx context.Context, id, name string) error {
	names, err := s.agents.DisplayNames(ctx)
	if err != nil {
		return s.classify(ctx, "list agents", "agent", err)
	}
	want := strings.ToLower(strings.TrimSpace(name))
	for other, n := range names {
		if other != id && strings.ToLower(strings.TrimSpace(n)) == want {
			return badRequest("name: %q is already the name of the agent %s", strings.TrimSpace(name), other)
		}
	}
	return nil
}

func applyPatch(d *agentdef.Definition, p AgentPatch) {
	if p.Name != nil {
		d.Name = *p.Name
	}
	if p.Kind != nil {
		d.Kind = *p.Kind
	}
	if p.Command != nil {
		d.Command = *p.Command
	}
	if p.Args != nil {
		d.Args = *p.Args
	}
	if p.Env != nil {
		d.Env = *p.Env
	}
	if p.BaseURL != nil {
		d.BaseURL = *p.BaseURL
	}
}

// storedObject is the setting key as an object of fields (empty when
// unset), so fields a definition does not own are kept.
func (s *Service) storedObject(ctx context.Context, key string) (map[string]json.RawMessage, error) {
	all, err := s.store.GetSettings(ctx)
	if err != nil {
		return nil, s.classify(ctx, "read settings", "settings", err)
	}
	obj := map[string]json.RawMessage{}
	if raw := all[key]; len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, badRequest("%s: the stored settings are not an object; fix them in Settings first", key)
		}
	}
	return obj, nil
}

// putAgent writes d over the stored object's definition fields, in one
// setting, then retires the agent's warm shims and checks its health anew.
func (s *Service) putAgent(ctx context.Context, id string, stored map[string]json.RawMessage, d agentdef.Definition) error {
	key := agentdef.SettingPrefix + id
	obj := map[string]json.RawMessage{}
	for k, v := range stored {
		obj[k] = v
	}
	for _, f := range definitionFields {
		delete(obj, f)
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(mustJSON(d.Config()), &fields)
	for k, v := range fields {
		obj[k] = v
	}
	raw := mustJSON(obj)
	if err := checkAgentSettings(key, raw); err != nil {
		return err
	}
	before, err := s.store.GetSettings(ctx)
	if err != nil {
		return s.classify(ctx, "read settings", "settings", err)
	}
	in := map[string]json.RawMessage{key: raw}
	if err := s.store.PutSettings(ctx, in); err != nil {
		return s.classify(ctx, "save agent", "agent", err)
	}
	s.retireWarm(ctx, in, before)
	s.agentsStale()
	return nil
}

// fieldError is a definition's problem as a bad request naming the field.
func fieldError(err error) error {
	var fe *agentdef.FieldError
	if errors.As(err, &fe) {
		return badRequest("%s", fe.Error())
	}
	return badRequest("%s", err.Error())
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps and structs of strings always marshal
	}
	return b
}

// AgentRegistry is GET /api/agents/registry: the shipped, dated snapshot of
// the ACP registry as "Add agent" offers it (agents/registry), each marked
// installed when its program is on PATH and taken when its id already
// names an agent here. It reads no network.
type AgentRegistry struct {
	Date   string          `json:"date"`
	Source string          `json:"source"`
	Commit string          `json:"commit"`
	Agents []RegistryOffer `json:"agents"`
}

// RegistryOffer is one offered agent.
type RegistryOffer struct {
	registry.Offer
	// Taken: an agent with this id exists (a built-in one, or added).
	Taken bool `json:"taken,omitempty"`
}

// ACPRegistry lists the registry's agents for "Add agent".
func (s *Service) ACPRegistry(ctx context.Context) (AgentRegistry, error) {
	snap, err := registry.Load()
	if err != nil {
		return AgentRegistry{}, s.classify(ctx, "read the ACP registry", "registry", err)
	}
	out := AgentRegistry{Date: snap.Date, Source: snap.Source, Commit: snap.Commit, Agents: []RegistryOffer{}}
	for _, o := range registry.Offers(snap, registry.Platform(runtime.GOOS, runtime.GOARCH), exec.LookPath) {
		out.Agents = append(out.Agents, RegistryOffer{Offer: o, Taken: s.agents.Known(o.ID)})
	}
	return out, nil
}
