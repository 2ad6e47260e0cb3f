package journal

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A session of a journal written before migration 8 reads with no kept
// settings and then keeps choices (docs/ARCHITECTURE.md §Session config
// options).
func TestMigrationKeepsSessionConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	old, err := open(path, Options{}, 7)
	if err != nil {
		t.Fatal(err)
	}
	seedV1(t, old)
	old.Close()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	ses, err := s.GetSession(ctx, "ses_old")
	if err != nil || ses.Config != nil {
		t.Fatalf("migrated session: %+v %v", ses, err)
	}
	ses, err = s.UpdateSession(ctx, "ses_old", run.SessionUpdate{Config: map[string]string{"mode": "plan"}})
	if err != nil || !reflect.DeepEqual(ses.Config, map[string]string{"mode": "plan"}) {
		t.Fatalf("after update: %+v %v", ses.Config, err)
	}
	if d, err := s.AgentConfig(ctx, "fake"); err != nil || d.Options != nil || d.Models != nil || d.Model != "" {
		t.Fatalf("an agent never seen: %+v %v", d, err)
	}
}

// Choices merge: a person's (between runs, or recorded by a run as
// config.updated's chosen) add to or replace the kept ones, "" forgets one.
// An agent's defaults (config.updated with defaults) are remembered per
// agent; a later report replaces them, a run's other reports do not.
func TestSessionConfigChoicesAndAgentDefaults(t *testing.T) {
	ctx := ctxT(t)
	s := openTest(t, Options{})
	f := newFixture(t, s)
	w := f.writer(t, f.sub.Run.ID)
	mode := func(current string) []run.ConfigOption {
		return []run.ConfigOption{{ID: "mode", Name: "Mode", Category: "mode", Type: "select", Current: current,
			Values: []run.ConfigValue{{ID: "build", Name: "Build"}, {ID: "plan", Name: "Plan"}}}}
	}
	steps := []struct {
		name     string
		update   map[string]string // through UpdateSession
		ev       *run.ConfigUpdated
		want     map[string]string
		defaults string // the agent's remembered mode
	}{
		{"the agent's defaults", nil, &run.ConfigUpdated{Options: mode("build"), Defaults: true}, nil, "build"},
		{"a person's choice between runs", map[string]string{"mode": "plan", "effort": "high"}, nil,
			map[string]string{"mode": "plan", "effort": "high"}, "build"},
		{"a choice recorded by the run", nil, &run.ConfigUpdated{Options: mode("build"), Chosen: map[string]string{"mode": "build"}},
			map[string]string{"mode": "build", "effort": "high"}, "build"},
		{"the agent's own report", nil, &run.ConfigUpdated{Options: mode("plan")},
			map[string]string{"mode": "build", "effort": "high"}, "build"},
		{"a choice no longer offered is dropped", nil, &run.ConfigUpdated{Options: mode("build"), Chosen: map[string]string{"effort": ""}},
			map[string]string{"mode": "build"}, "build"},
		{"newer defaults", nil, &run.ConfigUpdated{Options: mode("plan"), Defaults: true}, map[string]string{"mode": "build"}, "plan"},
		{"forgotten between runs", map[string]string{"mode": ""}, nil, map[string]string{}, "plan"},
	}
	for _, st := range steps {
		if st.update != nil {
			if _, err := s.UpdateSession(ctx, f.ses.ID, run.SessionUpdate{Config: st.update}); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		if st.ev != nil {
			if _, err := w.AppendSync(ctx, run.EventConfigUpdated, *st.ev); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		ses, err := s.GetSession(ctx, f.ses.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ses.Config) != len(st.want) || (len(st.want) > 0 && !reflect.DeepEqual(ses.Config, st.want)) {
			t.Fatalf("%s: session config %v, want %v", st.name, ses.Config, st.want)
		}
		d, err := s.AgentConfig(ctx, f.sub.Run.Agent)
		if err != nil || len(d.Options) != 1 || d.Options[0].Current != st.defaults || len(d.Options[0].Values) != 2 {
			t.Fatalf("%s: agent defaults %+v (%v), want mode %s", st.name, d, err, st.defaults)
		}
	}
}

// A new session's model and models (model.updated with defaults) are
// remembered per agent beside its settings; other model reports are not.
func TestAgentDefaultModels(t *testing.T) {
	ctx := ctxT(t)
	s := openTest(t, Options{})
	f := newFixture(t, s)
	w := f.writer(t, f.sub.Run.ID)
	models := []run.ModelOption{{ID: "small", Name: "Small"}, {ID: "large", Name: "Large"}}
	for _, ev := range []run.ModelUpdated{
		{Model: "small", Available: models, Defaults: true},
		{Model: "large", Available: models},
		{Model: "large", By: "user"},
	} {
		if _, err := w.AppendSync(ctx, run.EventModelUpdated, ev); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.AppendSync(ctx, run.EventConfigUpdated, run.ConfigUpdated{Defaults: true, Options: []run.ConfigOption{{ID: "mode", Type: "select", Current: "build"}}}); err != nil {
		t.Fatal(err)
	}
	d, err := s.AgentConfig(ctx, f.sub.Run.Agent)
	if err != nil || d.Model != "small" || !reflect.DeepEqual(d.Models, models) || len(d.Options) != 1 {
		t.Fatalf("agent defaults %+v (%v)", d, err)
	}
}
