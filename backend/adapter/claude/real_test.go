package claude

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

// These tests run the real Claude Code CLI (installed by
// scripts/install-agents.sh) against the fake model server.

type realEnv struct {
	srv       *fakemodel.Server
	launcher  *agenttest.Launcher
	workspace string
	home      string
	cfg       adapter.Config
}

func newRealEnv(t *testing.T) *realEnv {
	t.Helper()
	bin := agenttest.RequireTool(t, "claude")
	srv := fakemodel.Start(t)
	root := t.TempDir()
	e := &realEnv{srv: srv, launcher: agenttest.NewLauncher(t), workspace: filepath.Join(root, "work"), home: filepath.Join(root, "home")}
	agenttest.MkdirAll(t, e.workspace, e.home, filepath.Join(root, "tmp"))
	e.cfg = adapter.Config{Command: []string{bin}, BaseURL: srv.URL, APIKey: "dummy", Home: filepath.Join(e.home, ".claude"),
		Env: []string{"HOME=" + e.home, "TMPDIR=" + filepath.Join(root, "tmp"), "CLAUDE_CODE_MAX_RETRIES=0"}}
	return e
}

func (e *realEnv) start(t *testing.T, native string) adapter.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := New().Start(ctx, adapter.StartRequest{Workspace: e.workspace, NativeSessionID: native, Config: e.cfg},
		adapter.Host{Launcher: e.launcher, Log: os.Stderr})
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

func TestRealClaudeStreamsTextAndReasoning(t *testing.T) {
	e := newRealEnv(t)
	c := e.start(t, "")
	rec := agenttest.NewRecorder()
	res := agenttest.Turn(t, c, "[scenario:reasoning] think, then answer", rec)
	if res.Err != nil || res.Cancelled {
		t.Fatalf("result %+v", res)
	}
	if got := rec.Text(); got != "Here is a short, considered answer." {
		t.Fatalf("text %q", got)
	}
	if n := len(rec.OfType(run.EventTokenDelta)); n < 3 {
		t.Fatalf("want a stream of deltas, got %d", n)
	}
	if len(rec.OfType(run.EventReasoningDelta)) == 0 || len(rec.OfType(run.EventReasoningDone)) != 1 {
		t.Fatalf("reasoning events missing: %v", rec.Types())
	}
	if res.Usage == nil || res.Usage.OutputTokens == 0 || res.StopReason != "end_turn" {
		t.Fatalf("usage/stop %+v %q", res.Usage, res.StopReason)
	}
	e.save(t, "real-reasoning.jsonl")
}

func TestRealClaudeToolApproval(t *testing.T) {
	for _, tc := range []struct {
		option, status string
		file           bool
	}{{OptionAllow, "completed", true}, {OptionDeny, "denied", false}} {
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
				if err != nil || string(b) != "hello\n" || !strings.Contains(d.Output, "hello") {
					t.Fatalf("hello.txt %q %v; output %q", b, err, d.Output)
				}
			} else if err == nil {
				t.Fatal("hello.txt written although denied")
			}
			if !strings.Contains(rec.Text(), "All done") {
				t.Fatalf("no follow-up answer: %q", rec.Text())
			}
			e.save(t, "real-tool-"+tc.option+".jsonl")
		})
	}
}

func TestRealClaudeCancel(t *testing.T) {
	e := newRealEnv(t)
	c := e.start(t, "")
	rec := agenttest.NewRecorder()
	rec.OnFirst(run.EventTokenDelta, func() { _ = c.Cancel(context.Background()) })
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

func TestRealClaudeFollowUpAndResume(t *testing.T) {
	e := newRealEnv(t)
	c := e.start(t, "")
	if res := agenttest.Turn(t, c, "[scenario:text] first", agenttest.NewRecorder()); res.Err != nil {
		t.Fatal(res.Err)
	}
	// A follow-up over the same stdin.
	rec := agenttest.NewRecorder()
	if res := agenttest.Turn(t, c, "[scenario:recall] second", rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	if !strings.Contains(rec.Text(), "seen 2 marked user messages") {
		t.Fatalf("follow-up did not carry the first turn: %q", rec.Text())
	}
	sid := c.NativeSessionID()
	_ = c.Close()

	// A new process resumes the session by id.
	c2 := e.start(t, sid)
	rec = agenttest.NewRecorder()
	if res := agenttest.Turn(t, c2, "[scenario:recall] third", rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	if c2.NativeSessionID() != sid || !strings.Contains(rec.Text(), "seen 3 marked user messages. The first was: [scenario:text] first") {
		t.Fatalf("resume lost the session: %q (sid %s → %s)", rec.Text(), sid, c2.NativeSessionID())
	}
	reqs := e.srv.ModelRequests()
	last := reqs[len(reqs)-1].Conversation
	if !strings.Contains(last.Messages[0].Text, "[scenario:text] first") {
		t.Fatalf("model did not receive the prior turns: %+v", last.Messages)
	}
	e.save(t, "real-resume.jsonl")
}

// TestRealClaudeRateLimited records what Claude Code says when the model
// server answers 429 with reset headers (testdata/real-rate-limit.jsonl;
// its golden test is TestRateLimitTranscriptParks).
func TestRealClaudeRateLimited(t *testing.T) {
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
