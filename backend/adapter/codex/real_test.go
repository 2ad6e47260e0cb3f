package codex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// These tests run the real Codex CLI (installed by scripts/install-agents.sh)
// through `codex app-server` against the fake Responses server.

type realEnv struct {
	srv       *fakemodel.Server
	launcher  *agenttest.Launcher
	workspace string
	home      string
	cfg       adapter.Config
}

func newRealEnv(t *testing.T) *realEnv {
	t.Helper()
	bin := agenttest.RequireTool(t, "codex")
	srv := fakemodel.Start(t)
	root := t.TempDir()
	e := &realEnv{srv: srv, launcher: agenttest.NewLauncher(t), workspace: filepath.Join(root, "work"), home: filepath.Join(root, "home")}
	agenttest.MkdirAll(t, e.workspace, e.home, filepath.Join(root, "tmp"))
	e.cfg = adapter.Config{Command: []string{bin}, BaseURL: srv.URL, APIKey: "dummy", Home: filepath.Join(e.home, ".codex"),
		Env: []string{"HOME=" + e.home, "TMPDIR=" + filepath.Join(root, "tmp")}}
	return e
}

func (e *realEnv) start(t *testing.T, native string) adapter.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// bubblewrap cannot run here (CODEX_HOME under the temp dir, no user
	// namespaces), so the sandbox is off and approvals do the guarding.
	c, err := New().Start(ctx, adapter.StartRequest{Workspace: e.workspace, NativeSessionID: native, Config: e.cfg,
		Metadata: map[string]string{MetaSandbox: "danger-full-access"}}, adapter.Host{Launcher: e.launcher, Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func (e *realEnv) save(t *testing.T, name string) {
	e.launcher.Transcript.Save(t, filepath.Join("testdata", name), map[string]string{
		e.workspace: "/work", e.home: "/home", e.srv.URL: "http://127.0.0.1:PORT"})
}

func TestRealCodexStreamsTextAndReasoning(t *testing.T) {
	e := newRealEnv(t)
	c := e.start(t, "")
	rec := agenttest.NewRecorder()
	res := agenttest.Turn(t, c, "[scenario:reasoning] think, then answer", rec)
	if res.Err != nil || res.Cancelled {
		t.Fatalf("result %+v", res)
	}
	if got := rec.Text(); got != "Here is a short, considered answer." {
		t.Fatalf("text %q (events %v)", got, rec.Types())
	}
	if n := len(rec.OfType(run.EventTokenDelta)); n < 3 {
		t.Fatalf("want a stream of deltas, got %d", n)
	}
	if len(rec.OfType(run.EventReasoningDelta)) == 0 || len(rec.OfType(run.EventReasoningDone)) != 1 {
		t.Fatalf("reasoning events missing: %v", rec.Types())
	}
	if res.Usage == nil || res.Usage.OutputTokens == 0 {
		t.Fatalf("usage %+v", res.Usage)
	}
	// model/list answers offline with Codex's own presets: the picker's list.
	if mu := rec.OfType(run.EventModelUpdated); len(mu) != 1 || mu[0].(run.ModelUpdated).Model == "" || len(mu[0].(run.ModelUpdated).Available) == 0 {
		t.Fatalf("model.updated %+v", mu)
	}
	e.save(t, "real-reasoning.jsonl")
}

func TestRealCodexToolApproval(t *testing.T) {
	for _, tc := range []struct {
		option, status string
		file           bool
	}{{DecisionAccept, "completed", true}, {DecisionDecline, "denied", false}} {
		t.Run(tc.option, func(t *testing.T) {
			e := newRealEnv(t)
			c := e.start(t, "")
			rec := agenttest.NewRecorder()
			rec.OnApproval(func(a run.ApprovalRequested) {
				if err := c.RespondApproval(context.Background(), a.ApprovalID, tc.option); err != nil {
					t.Errorf("respond: %v", err)
				}
			})
			res := agenttest.Turn(t, c, "[scenario:tool] create hello.txt", rec)
			if res.Err != nil {
				t.Fatalf("result %+v", res)
			}
			appr := rec.OfType(run.EventApprovalRequest)
			if len(appr) != 1 || !strings.Contains(appr[0].(run.ApprovalRequested).Command, "echo hello") {
				t.Fatalf("approvals %+v", appr)
			}
			started, done := rec.OfType(run.EventToolStarted), rec.OfType(run.EventToolDone)
			if len(started) != 1 || len(done) != 1 {
				t.Fatalf("tool events %v", rec.Types())
			}
			d := done[0].(run.ToolDone)
			if d.Status != tc.status || d.ToolCallID != started[0].(run.ToolStarted).ToolCallID {
				t.Fatalf("tool.done %+v", d)
			}
			b, err := os.ReadFile(filepath.Join(e.workspace, "hello.txt"))
			if tc.file {
				if err != nil || string(b) != "hello\n" || !strings.Contains(d.Output, "hello") || d.ExitCode == nil || *d.ExitCode != 0 {
					t.Fatalf("hello.txt %q %v; tool.done %+v", b, err, d)
				}
			} else if err == nil {
				t.Fatal("hello.txt written although declined")
			}
			if !strings.Contains(rec.Text(), "All done") {
				t.Fatalf("no follow-up answer: %q", rec.Text())
			}
			e.save(t, "real-tool-"+tc.option+".jsonl")
		})
	}
}

func TestRealCodexCancel(t *testing.T) {
	e := newRealEnv(t)
	c := e.start(t, "")
	rec := agenttest.NewRecorder()
	rec.OnFirst(run.EventTokenDelta, func() {
		if err := c.Cancel(context.Background()); err != nil {
			t.Errorf("cancel: %v", err)
		}
	})
	res := agenttest.Turn(t, c, "[scenario:slow] stream for a while", rec)
	if !res.Cancelled || res.Err != nil {
		t.Fatalf("result %+v", res)
	}
	if n := len(rec.OfType(run.EventTokenDelta)); n >= 600 {
		t.Fatalf("stream was not interrupted: %d deltas", n)
	}
	pid := c.Pid()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !procio.WaitGroupGone(pid, 5*time.Second) {
		t.Fatalf("process group %d still alive after Close", pid)
	}
	e.save(t, "real-cancel.jsonl")
}

func TestRealCodexFollowUpAndResume(t *testing.T) {
	e := newRealEnv(t)
	c := e.start(t, "")
	if res := agenttest.Turn(t, c, "[scenario:text] first", agenttest.NewRecorder()); res.Err != nil {
		t.Fatal(res.Err)
	}
	rec := agenttest.NewRecorder()
	if res := agenttest.Turn(t, c, "[scenario:recall] second", rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	if !strings.Contains(rec.Text(), "seen 2 marked user messages") {
		t.Fatalf("follow-up did not carry the first turn: %q", rec.Text())
	}
	tid := c.NativeSessionID()
	_ = c.Close()

	c2 := e.start(t, tid)
	rec = agenttest.NewRecorder()
	if res := agenttest.Turn(t, c2, "[scenario:recall] third", rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	if c2.NativeSessionID() != tid || !strings.Contains(rec.Text(), "seen 3 marked user messages. The first was: [scenario:text] first") {
		t.Fatalf("resume lost the thread: %q (thread %s → %s)", rec.Text(), tid, c2.NativeSessionID())
	}
	e.save(t, "real-resume.jsonl")
}

// TestRealCodexRateLimited records what Codex says when the model server
// answers 429 with reset headers (testdata/real-rate-limit.jsonl; its
// golden test is TestRateLimitTranscriptParks).
func TestRealCodexRateLimited(t *testing.T) {
	e := newRealEnv(t)
	e.srv.RateLimitUntil(rateLimitReset)
	c := e.start(t, "")
	rec := agenttest.NewRecorder()
	res := agenttest.Turn(t, c, "hello", rec)
	if res.Err == nil || !strings.Contains(res.Err.Error(), "429") {
		t.Fatalf("want the turn to fail on the 429, got %+v (events %v)", res, rec.Types())
	}
	e.save(t, "real-rate-limit.jsonl")
}
