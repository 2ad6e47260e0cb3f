package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Session config options (docs/ARCHITECTURE.md §Session config options):
// agents report their settings — model, mode, thought level, switches —
// as session/new's (or session/load's) configOptions and follow them with
// config_option_update; older agents report modes (and models) apart.
// OpenCode and codex-acp report their models only this way.

// wireConfigOption is one ACP SessionConfigOption, read leniently.
type wireConfigOption struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	Category     string          `json:"category"`
	Type         string          `json:"type"`
	CurrentValue json.RawMessage `json:"currentValue"`
	// Options is a flat list of {value, name, description} or groups of
	// them ({group, name, options}).
	Options json.RawMessage `json:"options"`
}

type wireConfigValue struct {
	Value       string          `json:"value"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Options     json.RawMessage `json:"options"` // a group's own values
}

// wireSessionSettings is what session/new and session/load answer about
// settings.
type wireSessionSettings struct {
	ConfigOptions []json.RawMessage `json:"configOptions"`
	Modes         *wireModes        `json:"modes"`
}

// wireModes is the older ACP SessionModeState.
type wireModes struct {
	CurrentModeID  string     `json:"currentModeId"`
	AvailableModes []wireMode `json:"availableModes"`
}

type wireMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// configOptions maps ACP configOptions to the payload's; entries that do
// not decode or name no id are dropped.
func configOptions(raw []json.RawMessage) []run.ConfigOption {
	var out []run.ConfigOption
	for _, r := range raw {
		var w wireConfigOption
		if json.Unmarshal(r, &w) != nil || w.ID == "" {
			continue
		}
		o := run.ConfigOption{ID: w.ID, Name: orStr(w.Name, w.ID), Description: w.Description, Category: w.Category, Type: orStr(w.Type, "select")}
		var b bool
		var s string
		switch {
		case json.Unmarshal(w.CurrentValue, &s) == nil:
			o.Current = s
		case json.Unmarshal(w.CurrentValue, &b) == nil:
			o.Current = strconv.FormatBool(b)
		}
		if o.Type != "boolean" {
			o.Values = configValues(w.Options, 0)
		}
		out = append(out, o)
	}
	return out
}

func configValues(raw json.RawMessage, depth int) []run.ConfigValue {
	var items []wireConfigValue
	if depth > 2 || len(raw) == 0 || json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []run.ConfigValue
	for _, it := range items {
		if it.Value != "" {
			out = append(out, run.ConfigValue{ID: it.Value, Name: orStr(it.Name, it.Value), Description: it.Description})
		} else if len(it.Options) > 0 {
			out = append(out, configValues(it.Options, depth+1)...)
		}
	}
	return out
}

// legacyModeOption is the id of the older modes list as one selector, so
// the header shows modes by name (Copilot's ids are URLs); setting it is
// session/set_mode.
const legacyModeOption = "acp.modes"

// settingsEvents maps what a session's answer or a config_option_update
// says about settings: config.updated with every option, and model.updated
// for a model selector (the model picker drives it). Pure.
func settingsEvents(s wireSessionSettings) []Out {
	opts := configOptions(s.ConfigOptions)
	if s.Modes != nil && len(s.Modes.AvailableModes) > 0 && categoryOption(opts, "mode") == nil {
		o := run.ConfigOption{ID: legacyModeOption, Name: "Mode", Category: "mode", Type: "select", Current: s.Modes.CurrentModeID}
		for _, m := range s.Modes.AvailableModes {
			if m.ID != "" {
				o.Values = append(o.Values, run.ConfigValue{ID: m.ID, Name: orStr(m.Name, m.ID), Description: m.Description})
			}
		}
		opts = append(opts, o)
	}
	if len(opts) == 0 {
		return nil
	}
	out := []Out{{run.EventConfigUpdated, run.ConfigUpdated{Options: opts}}}
	if m := categoryOption(opts, "model"); m != nil && m.Current != "" {
		mu := run.ModelUpdated{Model: m.Current}
		for _, v := range m.Values {
			mu.Available = append(mu.Available, run.ModelOption{ID: v.ID, Name: v.Name, Description: v.Description})
		}
		out = append(out, Out{run.EventModelUpdated, mu})
	}
	return out
}

func categoryOption(opts []run.ConfigOption, category string) *run.ConfigOption {
	for i := range opts {
		if opts[i].Category == category && opts[i].Type == "select" {
			return &opts[i]
		}
	}
	return nil
}

// noteSettings remembers the latest settings (for SetModel) and, when
// queue is set, keeps their events for the next turn; updates that come
// as session/update are emitted by the mapper instead.
func (c *conn) noteSettings(outs []Out, queue bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, o := range outs {
		switch p := o.Payload.(type) {
		case run.ConfigUpdated:
			c.config = p.Options
		case run.ModelUpdated:
			c.model = p.Model
		}
		if queue {
			c.keepPending(o)
		}
	}
}

// onResult sees every successful answer to our requests: session/new and
// session/load carry the session's settings.
func (c *conn) onResult(method string, result json.RawMessage) {
	if method != "session/new" && method != "session/load" {
		return
	}
	var s wireSessionSettings
	if json.Unmarshal(result, &s) != nil {
		return
	}
	outs := settingsEvents(s)
	for i, o := range outs {
		// A new session's settings are the agent's defaults, remembered
		// to show before a session's first run; a loaded one's are the
		// session's own.
		switch p := o.Payload.(type) {
		case run.ConfigUpdated:
			p.Defaults = method == "session/new"
			outs[i].Payload = p
		case run.ModelUpdated:
			p.Defaults = method == "session/new"
			outs[i].Payload = p
		}
	}
	c.noteSettings(outs, true)
}

// modelOption is the id of the agent's model selector, "" when it has none.
func (c *conn) modelOption() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o := categoryOption(c.config, "model"); o != nil {
		return o.ID
	}
	return ""
}

// setConfigOption sets one selector through session/set_config_option;
// the answer carries the whole new set of options.
func (c *conn) setConfigOption(ctx context.Context, id, value string) error {
	params := map[string]any{"sessionId": c.sessionID, "configId": id, "value": value}
	if value == "true" || value == "false" {
		if o := c.option(id); o != nil && o.Type == "boolean" {
			params["type"], params["value"] = "boolean", value == "true"
		}
	}
	var res wireSessionSettings
	err := c.rpc.call(ctx, "session/set_config_option", params, &res)
	var re *RPCError
	if errors.As(err, &re) && re.Code == codeMethodNotFound {
		return fmt.Errorf("acp: %s: %w", c.a.display, adapter.ErrUnsupported)
	}
	if err != nil {
		return fmt.Errorf("acp: set %s to %q: %w", id, value, err)
	}
	if len(res.ConfigOptions) > 0 {
		c.noteSettings(settingsEvents(res), true)
	}
	return nil
}

// settingsUpdate reads a config_option_update's options; ok is false for
// any other update.
func settingsUpdate(update json.RawMessage) (wireSessionSettings, bool) {
	var u struct {
		Kind          string          `json:"sessionUpdate"`
		ConfigOptions json.RawMessage `json:"configOptions"`
	}
	if json.Unmarshal(update, &u) != nil || u.Kind != "config_option_update" {
		return wireSessionSettings{}, false
	}
	var s wireSessionSettings
	if json.Unmarshal(u.ConfigOptions, &s.ConfigOptions) != nil {
		return wireSessionSettings{}, false
	}
	return s, true
}

var _ adapter.ConfigSetter = (*conn)(nil)

// SetConfigOption sets one of the session's settings: a config option
// through session/set_config_option, the older modes (legacyModeOption)
// through session/set_mode. It answers the whole new set.
func (c *conn) SetConfigOption(ctx context.Context, id, value string) ([]run.ConfigOption, error) {
	opt := c.option(id)
	if opt == nil {
		return nil, fmt.Errorf("%s has no setting %q: %w", c.a.display, id, adapter.ErrInvalidAnswer)
	}
	if err := offered(*opt, value); err != nil {
		return nil, err
	}
	if opt.Current == value { // already so: nothing to ask
		c.mu.Lock()
		defer c.mu.Unlock()
		return append([]run.ConfigOption(nil), c.config...), nil
	}
	if id == legacyModeOption {
		if err := c.rpc.call(ctx, "session/set_mode", map[string]string{"sessionId": c.sessionID, "modeId": value}, nil); err != nil {
			return nil, fmt.Errorf("acp: set mode %q: %w", value, err)
		}
		c.mu.Lock()
		for i := range c.config {
			if c.config[i].ID == id {
				c.config[i].Current = value
			}
		}
		// The older modes' own event follows too (the inspector names the
		// mode by it), replacing the one session/new queued.
		c.keepPending(Out{run.EventModeUpdated, run.ModeUpdated{Mode: value}})
		c.mu.Unlock()
	} else if err := c.setConfigOption(ctx, id, value); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if opt.Category == "model" {
		c.model = value
	}
	return append([]run.ConfigOption(nil), c.config...), nil
}

// offered checks a value against what a setting offers.
func offered(o run.ConfigOption, value string) error {
	var ids []string
	if o.Type == "boolean" {
		ids = []string{"true", "false"}
	} else {
		for _, v := range o.Values {
			ids = append(ids, v.ID)
		}
	}
	for _, id := range ids {
		if id == value {
			return nil
		}
	}
	return fmt.Errorf("%q is not one of the choices of %s (%s): %w", value, o.Name, strings.Join(ids, ", "), adapter.ErrInvalidAnswer)
}

// option is a copy of the setting with that id, nil when there is none.
func (c *conn) option(id string) *run.ConfigOption {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, o := range c.config {
		if o.ID == id {
			return &o
		}
	}
	return nil
}

// followSettings keeps the conn's settings in step with the agent's
// config_option_update and current_mode_update (the mapper emits their
// events). Cheap for every other update: a substring test, no decode.
func (c *conn) followSettings(update json.RawMessage) {
	switch {
	case bytes.Contains(update, []byte("config_option_update")):
		if s, ok := settingsUpdate(update); ok {
			c.noteSettings(settingsEvents(s), false)
		}
	case bytes.Contains(update, []byte("current_mode_update")):
		c.noteMode(update)
	}
}

// noteMode follows current_mode_update in the older modes' selector.
func (c *conn) noteMode(update json.RawMessage) {
	var u struct {
		Kind   string `json:"sessionUpdate"`
		ModeID string `json:"currentModeId"`
	}
	if json.Unmarshal(update, &u) != nil || u.Kind != "current_mode_update" || u.ModeID == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.config {
		if c.config[i].ID == legacyModeOption {
			c.config[i].Current = u.ModeID
		}
	}
}
