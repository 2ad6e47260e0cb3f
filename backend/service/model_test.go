package service_test

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

func TestSessionModelPatch(t *testing.T) {
	s, _, ses := setup(t)
	str := func(v string) *string { return &v }
	cases := []struct {
		name  string
		model *string
		want  string
		bad   bool
	}{
		{"a model", str("  demo-large "), "demo-large", false},
		{"back to the default", str(""), "", false},
		{"too long", str(strings.Repeat("m", service.MaxNameBytes+1)), "", true},
		{"a newline", str("a\nb"), "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.UpdateSession(context.Background(), ses.ID, run.SessionUpdate{Model: c.model})
			if c.bad {
				if !errors.Is(err, service.ErrBadRequest) {
					t.Fatalf("err = %v, want bad request", err)
				}
				return
			}
			if err != nil || got.Model != c.want {
				t.Fatalf("model %q (%v), want %q", got.Model, err, c.want)
			}
		})
	}
}

// PATCH /api/sessions/{id} {config} merges the choices the session's next
// runs start with ("" forgets one); what cannot be a setting is a 400 and
// changes nothing (docs/ARCHITECTURE.md §Session config options).
func TestSessionConfigPatch(t *testing.T) {
	s, _, ses := setup(t)
	ctx := context.Background()
	steps := []struct {
		name   string
		config map[string]string
		want   string
		bad    bool
	}{
		{"choices", map[string]string{"mode": "plan", "effort": "high"}, "effort=high mode=plan", false},
		{"one changes, one is forgotten", map[string]string{"mode": "build", "effort": ""}, "mode=build", false},
		{"no id", map[string]string{"": "x"}, "mode=build", true},
		{"a value with a newline", map[string]string{"mode": "a\nb"}, "mode=build", true},
		{"an overlong value", map[string]string{"mode": strings.Repeat("v", service.MaxNameBytes+1)}, "mode=build", true},
	}
	for _, st := range steps {
		got, err := s.UpdateSession(ctx, ses.ID, run.SessionUpdate{Config: st.config})
		if st.bad != errors.Is(err, service.ErrBadRequest) || (!st.bad && err != nil) {
			t.Fatalf("%s: err = %v", st.name, err)
		}
		if !st.bad && configText(got.Config) != st.want {
			t.Fatalf("%s: answered config %s, want %s", st.name, configText(got.Config), st.want)
		}
		stored, err := s.Session(ctx, ses.ID)
		if err != nil || configText(stored.Session.Config) != st.want {
			t.Fatalf("%s: stored config %s (%v), want %s", st.name, configText(stored.Session.Config), err, st.want)
		}
	}
}

func configText(c map[string]string) string {
	var s []string
	for k, v := range c {
		s = append(s, k+"="+v)
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}

// memWithAgentConfig remembers agents' settings as the journal does.
type memWithAgentConfig struct {
	*servicetest.Mem
	opts map[string][]run.ConfigOption
}

func (m memWithAgentConfig) AgentConfig(_ context.Context, agent string) (run.AgentDefaults, error) {
	return run.AgentDefaults{Options: m.opts[agent], Model: "m1", Models: []run.ModelOption{{ID: "m1"}}}, nil
}

// GET /api/agents/{name}/config answers the agent's remembered settings
// for a new session, an empty list before any, and 404 for an agent that
// is not known.
func TestAgentConfig(t *testing.T) {
	m := servicetest.NewMem()
	mode := run.ConfigOption{ID: "mode", Name: "Mode", Category: "mode", Type: "select", Current: "read-only"}
	store := memWithAgentConfig{Mem: m, opts: map[string][]run.ConfigOption{"demo": {mode}}}
	s := service.New(store, m, m, service.Options{Log: quiet})
	ctx := context.Background()
	got, err := s.AgentConfig(ctx, "demo")
	if err != nil || len(got.Options) != 1 || got.Options[0].Current != "read-only" || got.Model != "m1" || len(got.Models) != 1 {
		t.Fatalf("remembered: %+v %v", got, err)
	}
	store.opts = nil
	s = service.New(store, m, m, service.Options{Log: quiet})
	if got, err := s.AgentConfig(ctx, "demo"); err != nil || got.Options == nil || len(got.Options) != 0 {
		t.Fatalf("none yet: %+v %v", got, err)
	}
	if _, err := s.AgentConfig(ctx, "nope"); !errors.Is(err, service.ErrNotFound) {
		t.Fatalf("unknown agent: %v", err)
	}
}
