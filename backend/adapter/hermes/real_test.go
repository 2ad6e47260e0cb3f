package hermes_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/hermes"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// These tests run the real Hermes Agent (pip, installed by
// scripts/install-agents.sh) one turn per process against the fake Chat
// Completions server. Hermes takes ~10-20 s to start a turn here, so the
// scenarios are combined to keep the suite short.

func newConn(t *testing.T, srv *fakemodel.Server, root, native string, l *agenttest.Launcher) adapter.Conn {
	t.Helper()
	bin := agenttest.RequireTool(t, "hermes")
	for _, d := range []string{"work", "home/.hermes", "tmp"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := adapter.Config{Command: []string{bin}, BaseURL: srv.URL, APIKey: "dummy", Home: filepath.Join(root, "home", ".hermes"),
		Env: []string{"HOME=" + filepath.Join(root, "home"), "TMPDIR=" + filepath.Join(root, "tmp")}}
	c, err := hermes.New().Start(context.Background(), adapter.StartRequest{Workspace: filepath.Join(root, "work"), NativeSessionID: native,
		Config: cfg, Metadata: map[string]string{hermes.MetaYolo: "1"}}, adapter.Host{Launcher: l, Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestRealHermesToolAndResume(t *testing.T) {
	agenttest.RequireTool(t, "hermes")
	srv := fakemodel.Start(t)
	root := t.TempDir()
	l := agenttest.NewLauncher(t)
	c := newConn(t, srv, root, "", l)

	rec := agenttest.NewRecorder()
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "[scenario:tool] create hello.txt"}, rec)
	if res.Err != nil || res.ExitCode == nil || *res.ExitCode != 0 {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(rec.Text(), "All done: hello.txt written.") {
		t.Fatalf("text %q", rec.Text())
	}
	if b, err := os.ReadFile(filepath.Join(root, "work", "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("hello.txt %q %v", b, err)
	}
	sid := c.NativeSessionID()
	if sid == "" {
		t.Fatal("no session id after the first turn")
	}

	// A new connection resumes the session; the model sees the first turn.
	c2 := newConn(t, srv, root, sid, l)
	rec = agenttest.NewRecorder()
	if res := c2.Turn(context.Background(), adapter.TurnRequest{Message: "[scenario:recall] again"}, rec); res.Err != nil {
		t.Fatalf("resume: %+v", res)
	}
	if !strings.Contains(rec.Text(), "seen 2 marked user messages. The first was: [scenario:tool] create hello.txt") {
		t.Fatalf("resume lost the session: %q", rec.Text())
	}
	if c2.NativeSessionID() != sid {
		t.Fatalf("session %s → %s", sid, c2.NativeSessionID())
	}
}

func TestRealHermesCancel(t *testing.T) {
	agenttest.RequireTool(t, "hermes")
	srv := fakemodel.Start(t)
	c := newConn(t, srv, t.TempDir(), "", agenttest.NewLauncher(t))
	done := make(chan adapter.TurnResult, 1)
	go func() {
		done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "[scenario:slow] stream"}, agenttest.NewRecorder())
	}()
	// Quiet mode prints nothing until the end, so cancel once the model is
	// streaming to Hermes.
	deadline := time.Now().Add(90 * time.Second)
	for !streaming(srv) {
		if time.Now().After(deadline) {
			t.Fatal("hermes never called the model")
		}
		time.Sleep(100 * time.Millisecond)
	}
	pid := c.Pid()
	if err := c.Cancel(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-done:
		if !res.Cancelled {
			t.Fatalf("result %+v", res)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("cancel did not end the turn")
	}
	if !procio.WaitGroupGone(pid, 5*time.Second) {
		t.Fatalf("process group %d still alive", pid)
	}
}

func streaming(srv *fakemodel.Server) bool {
	for _, r := range srv.ModelRequests() {
		if r.Scenario == "slow" {
			return true
		}
	}
	return false
}
