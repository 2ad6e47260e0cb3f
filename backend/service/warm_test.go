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
