package service_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

type warmFake []service.WarmAgent

func (w warmFake) WarmAgents() []service.WarmAgent { return w }

// Deep health lists the warm agents and the memory they hold together.
func TestHealthCountsWarmAgentsMemory(t *testing.T) {
	m := servicetest.NewMem()
	s := service.New(m, m, m, service.Options{Log: quiet, Warm: warmFake{
		{SessionID: "ses_a", Agent: "demo", Pid: 10, RSSBytes: 30 << 20},
		{SessionID: "ses_b", Agent: "demo", Pid: 11, RSSBytes: 12 << 20},
	}})
	h := s.Health(context.Background())
	if !h.OK || len(h.Warm) != 2 || h.WarmRSSBytes != 42<<20 {
		t.Fatalf("health = %+v", h)
	}
	b, _ := json.Marshal(h)
	if !strings.Contains(string(b), `"warm_rss_bytes":44040192`) {
		t.Fatalf("json: %s", b)
	}
	// Without a source the list is empty, not null.
	b, _ = json.Marshal(service.New(m, m, m, service.Options{Log: quiet}).Health(context.Background()))
	if !strings.Contains(string(b), `"warm_agents":[]`) {
		t.Fatalf("json: %s", b)
	}
}
