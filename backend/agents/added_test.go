package agents

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents/agentdef"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestAddedAgentIsItsKindUnderItsOwnName(t *testing.T) {
	cases := []struct {
		kind        string
		listsModels bool
	}{
		{agentdef.KindACP, false},
		{agentdef.KindCommand, false},
		{agentdef.KindOpenAI, true},
	}
	for _, c := range cases {
		a, err := AddedAdapter("mine", adapter.Config{Kind: c.kind, Name: "My agent", Command: []string{"x"}})
		if err != nil {
			t.Fatalf("%s: %v", c.kind, err)
		}
		if a.Name() != "mine" || a.DisplayName() != "My agent" {
			t.Errorf("%s: %s / %s, want mine / My agent", c.kind, a.Name(), a.DisplayName())
		}
		if _, ok := a.(modelsLister); ok != c.listsModels {
			t.Errorf("%s: lists models %v, want %v", c.kind, ok, c.listsModels)
		}
	}
	if _, err := AddedAdapter("x", adapter.Config{Kind: "grpc"}); !errors.Is(err, adapter.ErrNotInstalled) {
		t.Errorf("unknown kind: %v", err)
	}
}

// modelsLister is how the stack finds agents whose server lists models.
type modelsLister interface {
	ListModels(ctx context.Context, cfg adapter.Config) ([]run.ModelOption, error)
}

func TestCatalogueLooksUpBuiltInThenAdded(t *testing.T) {
	settings := map[string]json.RawMessage{
		"agents.mine":   json.RawMessage(`{"kind":"acp","name":"My agent","command":["mine"]}`),
		"agents.demo":   json.RawMessage(`{"kind":"command","name":"Not the demo","command":["x"]}`),
		"agents.claude": json.RawMessage(`{"command":["/opt/claude"]}`),
	}
	c := Catalogue{Registry: Default(Config{Executable: "/bin/hermesdesk"}),
		Settings: func(context.Context) (map[string]json.RawMessage, error) { return settings, nil }}
	ctx := context.Background()
	for id, want := range map[string]string{"mine": "My agent", "demo": "Demo agent (no AI)", "nobody": "nobody"} {
		if got := c.DisplayName(ctx, id); got != want {
			t.Errorf("DisplayName(%s) = %q, want %q", id, got, want)
		}
	}
	if !c.BuiltIn("demo") || c.BuiltIn("mine") {
		t.Error("BuiltIn confuses the built-in and the added")
	}
	all, err := c.All(ctx)
	if err != nil || !all.Has("mine") || !all.Has("claude") {
		t.Fatalf("All: %v %v", all.Names(), err)
	}
	if a, _ := all.Get("demo"); a.DisplayName() != "Demo agent (no AI)" {
		t.Errorf("a setting with a kind replaced the built-in demo agent: %s", a.DisplayName())
	}
	// The shim's lookup: built-in first, else what the run's settings say.
	if a, err := Lookup(c.Registry, "mine", adapter.Config{Kind: agentdef.KindACP, Name: "My agent", Command: []string{"mine"}}); err != nil || a.DisplayName() != "My agent" {
		t.Errorf("Lookup(mine) = %v, %v", a, err)
	}
	if _, err := Lookup(c.Registry, "mine", adapter.Config{}); !errors.Is(err, adapter.ErrNotInstalled) {
		t.Errorf("Lookup without a kind: %v", err)
	}
}
