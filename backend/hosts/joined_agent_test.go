//go:build linux

package hosts_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
	"github.com/hermesdesk/hermesdesk/testkit/sshd"
)

// A real agent CLI on the host (Claude Code, installed by
// scripts/install-agents.sh; HERMESDESK_TOOLS), pointed at the fake model
// through the host's own settings, set through the local API: its run
// there ends on the local bus, tagged with the host, and its session is
// copied here (docs/ARCHITECTURE.md §Hosts, "Joined").
func TestJoinedHostRunsARealAgent(t *testing.T) {
	claude := agenttest.RequireTool(t, "claude")
	srv := sshd.Start(t)
	bin := buildApp(t)
	t.Cleanup(func() { stopHostCore(srv) })
	model := fakemodel.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	core := newLocalCore(t, bin, srv)
	api := core.start()
	ch, err := api.Watch(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	bus := busWaiter{t, ch}
	var h hosts.Host
	if err := api.Call(ctx, "POST", "/api/hosts", service.AddHostRequest{Target: srv.Alias}, &h); err != nil {
		t.Fatal(err)
	}
	bus.await("the host reached", func(m run.WatchMessage) bool {
		return m.Type == run.WatchHostChanged && m.HostState.Host == h.ID && m.HostState.Reachable
	})
	on := "/api/hosts/" + h.ID

	// The agent's settings live on the host: its HOME there, the fake
	// model's URL.
	home := srv.RemoteHome
	cfg, err := json.Marshal(adapter.Config{Command: []string{claude}, BaseURL: model.URL, APIKey: "dummy",
		Home: filepath.Join(home, ".claude"), Env: []string{"HOME=" + home, "CLAUDE_CODE_MAX_RETRIES=0", "PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	if err := api.Call(ctx, "PUT", on+"/settings", map[string]json.RawMessage{agents.SettingKey("claude"): cfg}, nil); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(home, "agent-project")
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	var p run.Project
	if err := api.Call(ctx, "POST", on+"/projects", service.CreateProjectRequest{Workspace: ws}, &p); err != nil {
		t.Fatal(err)
	}
	var ses run.Session
	if err := api.Call(ctx, "POST", on+"/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "claude"}, &ses); err != nil {
		t.Fatal(err)
	}
	var res run.StartResult
	req := run.StartRequest{SessionID: ses.ID, Message: "Say hello from the host.", ClientRequestID: service.NewRequestID()}
	if err := api.Call(ctx, "POST", on+"/runs", req, &res); err != nil {
		t.Fatal(err)
	}
	end := bus.await("the real agent's run end", func(m run.WatchMessage) bool {
		return m.Type == run.WatchRunChanged && m.Run.RunID == res.RunID && m.Run.Status.Terminal()
	}).Run
	if end.Status != run.StatusCompleted || end.Host != h.ID {
		t.Fatalf("the real agent's run on the host: %+v", end)
	}
	d := checkCopy(ctx, t, api, remoteAPI(t, srv), []string{res.RunID})
	answered := ""
	for _, m := range d.Messages {
		if m.Role == run.RoleAssistant {
			answered += m.Content
		}
	}
	if !strings.Contains(answered, "Hello from the fake model") {
		t.Fatalf("the copy's answer %q, want the fake model's", answered)
	}
}
