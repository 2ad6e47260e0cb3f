package stack

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/openai"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
)

// modelsEnv is the service over the real OpenAI-compatible adapter, with
// settings kept in the in-memory journal.
func modelsEnv(t *testing.T) (*service.Service, *servicetest.Mem) {
	t.Helper()
	m := servicetest.NewMem()
	get := func(ctx context.Context, key string) ([]byte, bool, error) {
		all, err := m.GetSettings(ctx)
		v, ok := all[key]
		return v, ok, err
	}
	reg := adapter.NewRegistry(openai.New(), fakeAdapter{name: "demo", health: func(adapter.Config) adapter.Health { return adapter.Health{} }})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return service.New(m, m, Agents{Registry: reg, Setting: get}, service.Options{Log: log}), m
}

func setBaseURL(t *testing.T, s *service.Service, url string) {
	t.Helper()
	cfg, _ := json.Marshal(adapter.Config{BaseURL: url, APIKey: "secret-key"})
	if _, err := s.PutSettings(context.Background(), map[string]json.RawMessage{agents.SettingKey(openai.Name): cfg}); err != nil {
		t.Fatal(err)
	}
}

// closedURL is a local address nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return "http://" + addr
}

// The model picker's list for agents whose server lists models: asked
// once, kept until a refresh or a settings change, a plain message when the
// server cannot be reached, nothing for agents without such a list.
func TestAgentModels(t *testing.T) {
	ctx := context.Background()
	srv := fakemodel.Start(t)
	s, _ := modelsEnv(t)
	setBaseURL(t, s, srv.URL)
	asks := func() int {
		n := 0
		for _, r := range srv.Requests() {
			if r.Method == "GET" && strings.HasSuffix(r.Path, "/models") {
				n++
				if got := r.Header.Get("Authorization"); got != "Bearer secret-key" {
					t.Errorf("authorization %q", got)
				}
			}
		}
		return n
	}

	got, err := s.AgentModels(ctx, openai.Name, false)
	if err != nil || !got.Listed || len(got.Models) != 1 || got.Models[0].ID != "fake-model" || got.Message != "" {
		t.Fatalf("%+v %v", got, err)
	}
	if _, err := s.AgentModels(ctx, openai.Name, false); err != nil || asks() != 1 {
		t.Fatalf("a second read asked the server again: %d asks, %v", asks(), err)
	}
	if _, err := s.AgentModels(ctx, openai.Name, true); err != nil || asks() != 2 {
		t.Fatalf("refresh did not ask again: %d asks, %v", asks(), err)
	}

	// A changed URL is asked at once; an unreachable one gets a plain message.
	setBaseURL(t, s, closedURL(t))
	got, err = s.AgentModels(ctx, openai.Name, false)
	if err != nil || !got.Listed || len(got.Models) != 0 || !strings.Contains(got.Message, "Could not reach the agent's server") {
		t.Fatalf("unreachable: %+v %v", got, err)
	}
	if strings.Contains(got.Message, "127.0.0.1") || strings.Contains(got.Message, "dial") {
		t.Fatalf("message carries details: %q", got.Message)
	}
	b, _ := json.Marshal(got)
	if !strings.Contains(string(b), `"models":[]`) {
		t.Fatalf("models must be a list: %s", b)
	}

	// Back to the server: the settings change invalidates the cached failure.
	setBaseURL(t, s, srv.URL)
	if got, err = s.AgentModels(ctx, openai.Name, false); err != nil || len(got.Models) != 1 {
		t.Fatalf("after the fix: %+v %v", got, err)
	}

	for _, tc := range []struct {
		agent  string
		listed bool
		code   service.Code
	}{{"demo", false, ""}, {"nope", false, service.CodeNotFound}} {
		got, err := s.AgentModels(ctx, tc.agent, false)
		if (err != nil || tc.code != "") && service.CodeOf(err) != tc.code || got.Listed != tc.listed || (err == nil && got.Models == nil) {
			t.Errorf("%s: %+v %v", tc.agent, got, err)
		}
	}
}
