package command

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

func start(t *testing.T, command ...string) adapter.Conn {
	t.Helper()
	c, err := New().Start(context.Background(), adapter.StartRequest{Workspace: t.TempDir(), Config: adapter.Config{Command: command}},
		adapter.Host{Launcher: agenttest.NewLauncher(t), Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestStreamsStdout(t *testing.T) {
	c := start(t, "sh", "-c", `printf 'héllo '; sleep 0.2; printf '%s\n' "$1"; pwd >&2`, "sh", "you said: "+Placeholder)
	rec := agenttest.NewRecorder()
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "ünïcode & 'quotes'"}, rec)
	if res.Err != nil || res.ExitCode == nil || *res.ExitCode != 0 {
		t.Fatalf("result %+v", res)
	}
	if got := rec.Text(); got != "héllo you said: ünïcode & 'quotes'\n" {
		t.Fatalf("text %q", got)
	}
	if n := len(rec.OfType(run.EventTokenDelta)); n < 2 {
		t.Fatalf("stdout was not streamed: %d deltas", n)
	}
}

func TestExitCode(t *testing.T) {
	c := start(t, "sh", "-c", "echo nope; exit 3")
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "x"}, agenttest.NewRecorder())
	if res.Err == nil || res.ExitCode == nil || *res.ExitCode != 3 {
		t.Fatalf("result %+v", res)
	}
}

func TestCancelKillsTheGroup(t *testing.T) {
	// The shell ignores SIGTERM-free exit paths: a background child keeps
	// the group alive unless the whole group is signalled.
	c := start(t, "sh", "-c", `sleep 30 & echo started; wait`)
	rec := agenttest.NewRecorder()
	var pid int
	rec.OnEvent = func(agenttest.Event) {
		pid = c.Pid()
		go func() { _ = c.Cancel(context.Background()) }()
	}
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "x"}, rec) }()
	select {
	case res := <-done:
		if !res.Cancelled {
			t.Fatalf("result %+v", res)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("cancel did not end the turn")
	}
	if pid == 0 || !procio.WaitGroupGone(pid, 5*time.Second) {
		t.Fatalf("process group %d still alive", pid)
	}
	if err := c.Cancel(context.Background()); !errors.Is(err, adapter.ErrNotPending) {
		t.Fatalf("cancel between turns: %v", err)
	}
}

func TestArgv(t *testing.T) {
	tests := []struct {
		cmd  []string
		want string
	}{
		{[]string{"llm"}, "hi"},
		{[]string{"llm", "-m", "x"}, "-m x hi"},
		{[]string{"llm", "--prompt=" + Placeholder, "-v"}, "--prompt=hi -v"},
	}
	for _, tt := range tests {
		if got := strings.Join(Argv(tt.cmd, "hi"), " "); got != tt.want {
			t.Errorf("Argv(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

func TestHealth(t *testing.T) {
	if h := New().Health(context.Background(), adapter.Config{}); h.Installed || h.Message == "" {
		t.Fatalf("%+v", h)
	}
	if h := New().Health(context.Background(), adapter.Config{Command: []string{"sh"}}); !h.OK {
		t.Fatalf("%+v", h)
	}
	if h := New().Health(context.Background(), adapter.Config{Command: []string{"no-such-program-xyz"}}); h.Installed {
		t.Fatalf("%+v", h)
	}
}
