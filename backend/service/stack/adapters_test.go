package stack

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents"
)

// fakeAdapter is an adapter made of function fields.
type fakeAdapter struct {
	name   string
	health func(adapter.Config) adapter.Health
}

func (f fakeAdapter) Name() string                       { return f.name }
func (f fakeAdapter) DisplayName() string                { return "The " + f.name }
func (f fakeAdapter) Capabilities() adapter.Capabilities { return adapter.Capabilities{Cancel: true} }
func (f fakeAdapter) Health(_ context.Context, cfg adapter.Config) adapter.Health {
	return f.health(cfg)
}
func (f fakeAdapter) Start(context.Context, adapter.StartRequest, adapter.Host) (adapter.Conn, error) {
	return nil, adapter.ErrUnsupported
}

// The agent list the frontend reads: the discovery result in the service's
// AgentInfo shape, with each agent's settings applied.
func TestAgentsList(t *testing.T) {
	reg := adapter.NewRegistry(
		fakeAdapter{name: "good", health: func(cfg adapter.Config) adapter.Health {
			return adapter.Health{Installed: true, OK: true, Version: "1.0", Path: cfg.Command[0]}
		}},
		fakeAdapter{name: "broken", health: func(adapter.Config) adapter.Health { return adapter.Health{OK: true} }},
	)
	settings := map[string]string{
		agents.SettingKey("good"):   `{"command":["/bin/good"]}`,
		agents.SettingKey("broken"): `{"command":"not a list"}`,
	}
	get := func(_ context.Context, key string) ([]byte, bool, error) {
		v, ok := settings[key]
		return []byte(v), ok, nil
	}
	list, err := Agents{Registry: reg, Setting: get}.List(context.Background())
	if err != nil || len(list) != 2 {
		t.Fatalf("%+v %v", list, err)
	}
	got := map[string]string{}
	for _, a := range list {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		got[a.Name] = string(b)
	}
	want := map[string]string{
		"good":   `{"name":"good","display_name":"The good","installed":true,"ok":true,"version":"1.0","path":"/bin/good","capabilities":{"streaming":false,"approvals":false,"clarify":false,"resume":false,"cancel":true,"models":false,"queue":false}}`,
		"broken": `{"name":"broken","display_name":"The broken","installed":false,"ok":false,"message":"the agent's settings are invalid","capabilities":{"streaming":false,"approvals":false,"clarify":false,"resume":false,"cancel":true,"models":false,"queue":false}}`,
	}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%s:\n got %s\nwant %s", n, got[n], w)
		}
	}
}
