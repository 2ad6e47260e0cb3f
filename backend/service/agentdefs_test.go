package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/agents/agentdef"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

func ptr[T any](v T) *T { return &v }

// Changing an agent changes the fields given and keeps the rest of its
// setting (a key, options), for an added agent and a built-in one alike.
func TestUpdateAgentKeepsWhatItDoesNotChange(t *testing.T) {
	ctx := context.Background()
	s, m := newSvc(t)
	if _, err := s.AddAgent(ctx, agentdef.Definition{ID: "mine", Name: "Mine", Kind: agentdef.KindACP, Command: "mine", Args: []string{"acp"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutSettings(ctx, map[string]json.RawMessage{
		"agents.mine": json.RawMessage(`{"kind":"acp","name":"Mine","command":["mine","acp"],"api_key":"sk-secret-0123456789","options":{"fast":"1"}}`),
		"agents.demo": json.RawMessage(`{"command":["/opt/demo","demo-agent"],"home":"/h","options":{"x":"y"}}`),
	}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		id    string
		patch service.AgentPatch
		want  map[string]any // the stored setting afterwards
	}{
		{"mine", service.AgentPatch{Name: ptr("Renamed"), Env: &map[string]string{"B": "2", "A": "1"}},
			map[string]any{"kind": "acp", "name": "Renamed", "command": []any{"mine", "acp"}, "env": []any{"A=1", "B=2"}, "api_key": "sk-secret-0123456789", "options": map[string]any{"fast": "1"}}},
		{"mine", service.AgentPatch{Command: ptr("/usr/local/bin/mine"), Args: &[]string{}},
			map[string]any{"kind": "acp", "name": "Renamed", "command": []any{"/usr/local/bin/mine"}, "env": []any{"A=1", "B=2"}, "api_key": "sk-secret-0123456789", "options": map[string]any{"fast": "1"}}},
		{"demo", service.AgentPatch{Env: &map[string]string{"K": "v"}},
			map[string]any{"command": []any{"/opt/demo", "demo-agent"}, "env": []any{"K=v"}, "home": "/h", "options": map[string]any{"x": "y"}}},
	}
	for i, c := range cases {
		if _, err := s.UpdateAgent(ctx, c.id, c.patch); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		all, _ := m.GetSettings(ctx)
		var got map[string]any
		_ = json.Unmarshal(all["agents."+c.id], &got)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("case %d: stored %v\nwant %v", i, got, c.want)
		}
	}
}

func TestUpdateAndRemoveRefuseWhatTheyCannotDo(t *testing.T) {
	ctx := context.Background()
	s, m := newSvc(t)
	if _, err := s.AddAgent(ctx, agentdef.Definition{ID: "mine", Name: "Mine", Kind: agentdef.KindACP, Command: "mine"}); err != nil {
		t.Fatal(err)
	}
	before, _ := m.GetSettings(ctx)
	cases := []struct {
		name string
		err  error
		says string
	}{
		{"built-in kind", update(s, "demo", service.AgentPatch{Kind: ptr("command")}), "kind:"},
		{"built-in name", update(s, "demo", service.AgentPatch{Name: ptr("X")}), "name:"},
		{"built-in env", update(s, "demo", service.AgentPatch{Env: &map[string]string{"A B": "1"}}), "env:"},
		{"empty command", update(s, "mine", service.AgentPatch{Command: ptr("")}), "command:"},
		{"unknown kind", update(s, "mine", service.AgentPatch{Kind: ptr("grpc")}), "kind:"},
		{"unknown agent", update(s, "nobody", service.AgentPatch{Name: ptr("x")}), "not found"},
		{"another agent's name", update(s, "mine", service.AgentPatch{Name: ptr(" DEMO ")}), "name:"},
		{"add under another agent's name", add(s, agentdef.Definition{ID: "other", Name: "mine", Kind: agentdef.KindACP, Command: "x"}), "name:"},
		{"remove built-in", s.RemoveAgent(ctx, "demo"), "built in"},
		{"remove unknown", s.RemoveAgent(ctx, "nobody"), "not found"},
		{"settings making a built-in an agent of a kind", put(s, "agents.demo", `{"kind":"command","command":["x"]}`), "kind:"},
		{"settings with a half definition", put(s, "agents.half", `{"kind":"acp","name":"Half"}`), "command:"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(service.MessageOf(c.err), c.says) {
			t.Errorf("%s: %v, want an error saying %q", c.name, c.err, c.says)
		}
		if c.says != "not found" && !errors.Is(c.err, service.ErrBadRequest) {
			t.Errorf("%s: %v is not a bad request", c.name, c.err)
		}
	}
	after, _ := m.GetSettings(ctx)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("refused changes were saved:\nbefore %s\nafter  %s", before, after)
	}
	if err := s.RemoveAgent(ctx, "mine"); err != nil || m.Known("mine") {
		t.Fatalf("remove: %v; still known: %v", err, m.Known("mine"))
	}
}

func update(s *service.Service, id string, p service.AgentPatch) error {
	_, err := s.UpdateAgent(context.Background(), id, p)
	return err
}

func add(s *service.Service, d agentdef.Definition) error {
	_, err := s.AddAgent(context.Background(), d)
	return err
}

func put(s *service.Service, k, v string) error {
	_, err := s.PutSettings(context.Background(), map[string]json.RawMessage{k: json.RawMessage(v)})
	return err
}
