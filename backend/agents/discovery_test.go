package agents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// fakeAdapter is an adapter made of function fields.
type fakeAdapter struct {
	name     string
	healthFn func(ctx context.Context, cfg adapter.Config) adapter.Health
}

func (f fakeAdapter) Name() string        { return f.name }
func (f fakeAdapter) DisplayName() string { return strings.ToUpper(f.name) }
func (f fakeAdapter) Capabilities() adapter.Capabilities {
	return adapter.Capabilities{Streaming: true}
}
func (f fakeAdapter) Health(ctx context.Context, cfg adapter.Config) adapter.Health {
	return f.healthFn(ctx, cfg)
}
func (f fakeAdapter) Start(context.Context, adapter.StartRequest, adapter.Host) (adapter.Conn, error) {
	return nil, adapter.ErrUnsupported
}

func TestDiscoverChecksConcurrentlyAndOrders(t *testing.T) {
	names := []string{"zeta", "codex", "hermes", "alpha", "claude"}
	// Every check waits for all the others: only concurrent checks finish.
	var barrier sync.WaitGroup
	barrier.Add(len(names))
	reg := adapter.NewRegistry()
	for _, n := range names {
		reg.Register(fakeAdapter{name: n, healthFn: func(ctx context.Context, cfg adapter.Config) adapter.Health {
			barrier.Done()
			done := make(chan struct{})
			go func() { barrier.Wait(); close(done) }()
			select {
			case <-done:
				return adapter.Health{Installed: true, OK: true, Version: cfg.APIKey}
			case <-ctx.Done():
				return adapter.Health{Message: "timed out"}
			}
		}})
	}
	got := Discover(context.Background(), reg, func(_ context.Context, agent string) (adapter.Config, error) {
		return adapter.Config{APIKey: "v-" + agent}, nil
	})
	var order []string
	for _, s := range got {
		order = append(order, s.Name)
		if !s.Health.OK || s.Health.Version != "v-"+s.Name || !s.Capabilities.Streaming || s.DisplayName == "" {
			t.Errorf("%s: %+v", s.Name, s)
		}
	}
	if strings.Join(order, ",") != "hermes,claude,codex,alpha,zeta" {
		t.Fatalf("order %v", order)
	}
}

func TestDiscoverBoundsAStuckCheck(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	// A name of its own: a check that finishes late is cached for later
	// Discovers (of this test too, under -count).
	name := fmt.Sprintf("stuck-%d", time.Now().UnixNano())
	reg := adapter.NewRegistry(fakeAdapter{name: name, healthFn: func(context.Context, adapter.Config) adapter.Health {
		<-stuck // ignores its context
		return adapter.Health{OK: true}
	}})
	got := Discover(context.Background(), reg, nil)
	if len(got) != 1 || got[0].Health.OK || !strings.Contains(got[0].Health.Message, "in time") {
		t.Fatalf("%+v", got)
	}
}

func TestLocalCommand(t *testing.T) {
	tools := t.TempDir()
	bin := filepath.Join(tools, "venv", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "hermes"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ToolsDirEnv, tools)
	t.Setenv("PATH", t.TempDir())
	if got := LocalCommand("hermes"); len(got) != 2 || got[0] != filepath.Join(bin, "hermes") || got[1] != "acp" {
		t.Fatalf("hermes: %v", got)
	}
	if got := LocalCommand("gemini"); got != nil {
		t.Fatalf("gemini is not installed: %v", got)
	}
	if got := LocalCommand("unknown"); got != nil {
		t.Fatalf("unknown: %v", got)
	}
}

func TestDiscoverReportsInvalidSettings(t *testing.T) {
	checked := false
	reg := adapter.NewRegistry(fakeAdapter{name: "x", healthFn: func(context.Context, adapter.Config) adapter.Health {
		checked = true
		return adapter.Health{OK: true}
	}})
	get := func(context.Context, string) ([]byte, bool, error) { return []byte(`{"command": 7}`), true, nil }
	got := Discover(context.Background(), reg, ResolveWith(get))
	if len(got) != 1 || got[0].Health.OK || got[0].Health.Message != msgBadSettings || checked {
		t.Fatalf("%+v (checked %v)", got, checked)
	}
}
