package service_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

// retireRunner is the in-memory runner with warm agents to retire.
type retireRunner struct {
	*servicetest.Mem
	retired []string
}

func (r *retireRunner) RetireWarm(_ context.Context, agent string) int {
	r.retired = append(r.retired, agent)
	return 1
}

// Saving an agent's settings retires its warm agents, and only its.
func TestPutSettingsRetiresWarmAgentsOfChangedAgents(t *testing.T) {
	m := servicetest.NewMem()
	r := &retireRunner{Mem: m}
	s := service.New(m, r, m, service.Options{Log: quiet})
	_, err := s.PutSettings(context.Background(), map[string]json.RawMessage{
		"agents.demo":    json.RawMessage(`{"env":["A=1"]}`),
		"agents.claude":  json.RawMessage(`{"home":"/x"}`),
		"retention_days": json.RawMessage(`30`),
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(r.retired)
	if !slices.Equal(r.retired, []string{"claude", "demo"}) {
		t.Fatalf("retired %v, want [claude demo]", r.retired)
	}

	// The same settings saved again (a form saved unchanged) keep them.
	r.retired = nil
	if _, err := s.PutSettings(context.Background(), map[string]json.RawMessage{
		"agents.demo":   json.RawMessage(`{ "env": ["A=1"] }`),
		"agents.claude": json.RawMessage(`{"home":"/y"}`),
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.retired, []string{"claude"}) {
		t.Fatalf("retired %v after saving demo unchanged, want [claude]", r.retired)
	}
}

// A limit out of range is refused as a whole: nothing of the request is
// stored, and the error names the setting.
func TestPutSettingsRefusesABadLimit(t *testing.T) {
	m := servicetest.NewMem()
	s := service.New(m, m, m, service.Options{Log: quiet})
	ctx := context.Background()
	_, err := s.PutSettings(ctx, map[string]json.RawMessage{
		"theme":               json.RawMessage(`"dark"`),
		"max_concurrent_runs": json.RawMessage(`0`),
	})
	if service.CodeOf(err) != service.CodeBadRequest {
		t.Fatalf("got %v, want a bad request", err)
	}
	got, err := s.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got["theme"]; ok {
		t.Fatalf("a refused request stored part of itself: %v", got)
	}
	if _, err := s.PutSettings(ctx, map[string]json.RawMessage{"max_concurrent_runs": json.RawMessage(`2`)}); err != nil {
		t.Fatalf("a valid limit refused: %v", err)
	}
}
