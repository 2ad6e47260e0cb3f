// Package agentdef is an agent a person added (docs/ARCHITECTURE.md §Agents are data): its id, name, kind, command, arguments and environment, how it is
// checked, and how it is kept — as the setting "agents.<id>", the same
// object that holds a built-in agent's overrides (adapter.Config), with the
// kind and name that make it an agent of its own. One setting per agent, so
// saving one is one row written: nothing is ever half-saved.
// See docs/ARCHITECTURE.md §Agents are data.
package agentdef

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// The kinds of agent a person can add: an ACP agent (any of the registry's),
// a command line run once per message, an OpenAI-compatible server.
const (
	KindACP     = "acp"
	KindCommand = "command"
	KindOpenAI  = "openai-compatible"
)

// Kinds lists the kinds, in the order a form offers them.
var Kinds = []string{KindACP, KindCommand, KindOpenAI}

// Limits on what a definition may hold.
const (
	MaxIDBytes   = 48
	MaxNameBytes = 64
)

var (
	idRE     = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	envKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Definition is one added agent as the API speaks it.
type Definition struct {
	ID      string            `json:"id"`
	Name    string            `json:"name"`
	Kind    string            `json:"kind"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// BaseURL is where an openai-compatible agent's server answers.
	BaseURL string `json:"base_url,omitempty"`
}

// FieldError names the field that is wrong and says why, for a person.
type FieldError struct {
	Field   string
	Problem string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Problem }

func bad(field, format string, args ...any) error {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// CheckID reports an id that cannot name an agent: lower-case letters,
// digits, - and _ (no dot: the setting "agents.<id>.<field>" splits on it).
func CheckID(id string) error {
	switch {
	case id == "":
		return bad("id", "is required")
	case len(id) > MaxIDBytes:
		return bad("id", "must be at most %d characters", MaxIDBytes)
	case !idRE.MatchString(id):
		return bad("id", "%q must be lower-case letters, digits, - and _, starting with a letter or digit", id)
	}
	return nil
}

// Validate checks d on its own; taken reports ids already in use (the
// built-in agents and those added before) and may be nil.
func (d Definition) Validate(taken func(id string) bool) error {
	if err := CheckID(d.ID); err != nil {
		return err
	}
	if taken != nil && taken(d.ID) {
		return bad("id", "an agent with id %q already exists", d.ID)
	}
	name := strings.TrimSpace(d.Name)
	switch {
	case name == "":
		return bad("name", "is required")
	case len(name) > MaxNameBytes || !utf8.ValidString(name):
		return bad("name", "must be text of at most %d bytes", MaxNameBytes)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return bad("name", "must be one line without control characters")
	}
	switch d.Kind {
	case KindACP, KindCommand:
		if strings.TrimSpace(d.Command) == "" {
			return bad("command", "is required: the program that starts the agent")
		}
	case KindOpenAI:
		if d.BaseURL == "" {
			return bad("base_url", "is required: the address of the OpenAI-compatible server")
		}
	case "":
		return bad("kind", "is required: one of %s", strings.Join(Kinds, ", "))
	default:
		return bad("kind", "%q is not one of %s", d.Kind, strings.Join(Kinds, ", "))
	}
	return d.CheckLaunch()
}

// CheckLaunch checks how d starts (command, arguments, environment, server
// address), which a built-in agent's settings may change too.
func (d Definition) CheckLaunch() error {
	if strings.ContainsRune(d.Command, 0) {
		return bad("command", "holds a NUL character")
	}
	for i, a := range d.Args {
		if strings.ContainsRune(a, 0) {
			return bad("args", "argument %d holds a NUL character", i+1)
		}
	}
	for _, k := range sortedKeys(d.Env) {
		if !envKeyRE.MatchString(k) {
			return bad("env", "%q is not a variable name (letters, digits and _, not starting with a digit)", k)
		}
		if strings.ContainsRune(d.Env[k], 0) {
			return bad("env", "the value of %s holds a NUL character", k)
		}
	}
	if d.BaseURL != "" {
		u, err := url.Parse(d.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return bad("base_url", "must be an http:// or https:// address")
		}
	}
	return nil
}

// Config is the setting d is kept as (adapter.Config's shape): the command
// line is the program followed by its arguments, env is KEY=VALUE sorted.
func (d Definition) Config() adapter.Config {
	c := adapter.Config{Kind: d.Kind, Name: strings.TrimSpace(d.Name), BaseURL: d.BaseURL}
	if d.Command != "" {
		c.Command = append([]string{d.Command}, d.Args...)
	}
	for _, k := range sortedKeys(d.Env) {
		c.Env = append(c.Env, k+"="+d.Env[k])
	}
	return c
}

// FromConfig is the definition kept as cfg under id; ok is false for a
// setting that holds no kind (a built-in agent's overrides, or nothing).
func FromConfig(id string, cfg adapter.Config) (d Definition, ok bool) {
	if cfg.Kind == "" {
		return Definition{}, false
	}
	d = Definition{ID: id, Name: cfg.Name, Kind: cfg.Kind, BaseURL: cfg.BaseURL}
	if len(cfg.Command) > 0 {
		d.Command, d.Args = cfg.Command[0], append([]string(nil), cfg.Command[1:]...)
	}
	if len(cfg.Env) > 0 {
		d.Env = map[string]string{}
		for _, e := range cfg.Env {
			k, v, _ := strings.Cut(e, "=")
			d.Env[k] = v
		}
	}
	return d, true
}

// SettingPrefix is the settings key prefix of agents' settings.
const SettingPrefix = "agents."

// Parse reads the setting value raw (adapter.Config's JSON); a null or
// empty value is the zero Config.
func Parse(raw json.RawMessage) (adapter.Config, error) {
	var cfg adapter.Config
	if len(raw) == 0 || string(raw) == "null" {
		return cfg, nil
	}
	err := json.Unmarshal(raw, &cfg)
	return cfg, err
}

// Added lists the definitions among settings (every "agents.<id>" holding
// a kind), by id; settings that do not parse are skipped.
func Added(settings map[string]json.RawMessage) []Definition {
	var out []Definition
	for k, v := range settings {
		id, ok := strings.CutPrefix(k, SettingPrefix)
		if !ok || strings.Contains(id, ".") {
			continue
		}
		cfg, err := Parse(v)
		if err != nil {
			continue
		}
		if d, ok := FromConfig(id, cfg); ok {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
