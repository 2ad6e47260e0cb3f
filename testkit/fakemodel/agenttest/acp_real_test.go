package agenttest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// The real Gemini CLI and Hermes Agent through the project's ACP adapter,
// configured by the fakemodel recipes.

type acpEnv struct {
	root      string
	srv       *fakemodel.Server
	launcher  *agenttest.Launcher
	workspace string
	cfg       adapter.Config
	a         adapter.Adapter
}

func newACPEnv(t *testing.T, agent string) *acpEnv {
	t.Helper()
	srv := fakemodel.Start(t)
	root := t.TempDir()
	e := &acpEnv{root: root, srv: srv, launcher: agenttest.NewLauncher(t), workspace: filepath.Join(root, "work")}
	home := filepath.Join(root, "home")
	agenttest.MkdirAll(t, e.workspace, home, filepath.Join(root, "tmp"))
	var err error
	switch agent {
	case "gemini":
		e.a = agents.Gemini()
		e.cfg, err = fakemodel.GeminiACPConfig(agenttest.RequireTool(t, "gemini"), home, srv.URL)
	case "hermes":
		e.a = agents.Hermes()
		e.cfg, err = fakemodel.HermesACPConfig(agenttest.RequireTool(t, "hermes"), home, srv.URL)
	}
	if err != nil {
		t.Fatal(err)
	}
	e.cfg.Env = append(e.cfg.Env, "TMPDIR="+filepath.Join(root, "tmp"))
	return e
}

func (e *acpEnv) start(t *testing.T, native string) adapter.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := e.a.Start(ctx, adapter.StartRequest{Workspace: e.workspace, NativeSessionID: native, Config: e.cfg},
		adapter.Host{Launcher: e.launcher, Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// save records the native ACP exchange into testdata/ (HERMESDESK_RECORD=1)
// for the ACP mapper's fixtures.
func (e *acpEnv) save(t *testing.T, name string) { e.saveAt(t, filepath.Join("testdata", name)) }

// saveAt is save to another package's testdata (path from this package).
func (e *acpEnv) saveAt(t *testing.T, path string) {
	e.launcher.Transcript.Save(t, path, map[string]string{
		e.root: "/root", e.srv.URL: "http://127.0.0.1:PORT"})
}

func optionOfKind(a run.ApprovalRequested, kind string) string {
	for _, o := range a.Options {
		if o.Kind == kind {
			return o.ID
		}
	}
	return ""
}

func TestRealGeminiACP(t *testing.T) {
	t.Run("text", func(t *testing.T) {
		e := newACPEnv(t, "gemini")
		c := e.start(t, "")
		rec := agenttest.NewRecorder()
		res := agenttest.Turn(t, c, "[scenario:reasoning] think, then answer", rec)
		if res.Err != nil || res.Cancelled {
			t.Fatalf("result %+v", res)
		}
		if got := rec.Text(); got != "Here is a short, considered answer." || len(rec.OfType(run.EventTokenDelta)) < 3 {
			t.Fatalf("text %q in %d deltas", got, len(rec.OfType(run.EventTokenDelta)))
		}
		if len(rec.OfType(run.EventReasoningDelta)) == 0 {
			t.Errorf("no reasoning: %v", rec.Types())
		}
		// A follow-up on the same connection carries the first turn.
		rec = agenttest.NewRecorder()
		if res := agenttest.Turn(t, c, "[scenario:recall] again", rec); res.Err != nil {
			t.Fatal(res.Err)
		}
		if !strings.Contains(rec.Text(), "seen 2 marked user messages. The first was: [scenario:reasoning]") {
			t.Fatalf("follow-up lost the first turn: %q", rec.Text())
		}
		e.save(t, "gemini-acp-text-followup.jsonl")
	})
	for _, tc := range []struct {
		kind   string
		status string
		file   bool
	}{{"allow_once", "completed", true}, {"reject_once", "", false}} {
		t.Run("tool-"+tc.kind, func(t *testing.T) {
			e := newACPEnv(t, "gemini")
			c := e.start(t, "")
			rec := agenttest.NewRecorder()
			rec.OnApproval(func(a run.ApprovalRequested) {
				if err := c.RespondApproval(context.Background(), a.ApprovalID, optionOfKind(a, tc.kind)); err != nil {
					t.Errorf("respond: %v", err)
				}
			})
			res := agenttest.Turn(t, c, "[scenario:tool] create hello.txt", rec)
			if res.Err != nil {
				t.Fatalf("result %+v", res)
			}
			if n := len(rec.OfType(run.EventApprovalRequest)); n != 1 {
				t.Fatalf("%d approvals: %v", n, rec.Types())
			}
			done := rec.OfType(run.EventToolDone)
			if len(rec.OfType(run.EventToolStarted)) == 0 || len(done) == 0 {
				t.Fatalf("tool events %v", rec.Types())
			}
			last := done[len(done)-1].(run.ToolDone)
			b, err := os.ReadFile(filepath.Join(e.workspace, "hello.txt"))
			if os.Getenv("HERMESDESK_DUMP") == "1" {
				for _, l := range e.launcher.Transcript.Lines() {
					if strings.Contains(string(l), "tool_call") {
						t.Logf("native: %s", l)
					}
				}
			}
			if tc.file {
				if err != nil || string(b) != "hello\n" || last.Status != tc.status {
					t.Fatalf("hello.txt %q %v; tool.done %+v", b, err, last)
				}
				// Gemini CLI 0.61.0 sends no shell output over ACP
				// (tool_call_update content is empty); the model gets it.
				if !toolResultHas(e.srv, "hello") {
					t.Fatal("the command's output never reached the model")
				}
			} else if err == nil || last.Status == "completed" {
				t.Fatalf("denied, yet hello.txt %q / tool.done %+v", b, last)
			}
			e.save(t, "gemini-acp-tool-"+tc.kind+".jsonl")
		})
	}
	t.Run("cancel", func(t *testing.T) {
		e := newACPEnv(t, "gemini")
		c := e.start(t, "")
		rec := agenttest.NewRecorder()
		rec.OnFirst(run.EventTokenDelta, func() { _ = c.Cancel(context.Background()) })
		res := agenttest.Turn(t, c, "[scenario:slow] stream", rec)
		if !res.Cancelled {
			t.Fatalf("result %+v", res)
		}
		e.save(t, "gemini-acp-cancel.jsonl")
	})
}

func TestRealHermesACP(t *testing.T) {
	e := newACPEnv(t, "hermes")
	c := e.start(t, "")
	rec := agenttest.NewRecorder()
	rec.OnApproval(func(a run.ApprovalRequested) {
		_ = c.RespondApproval(context.Background(), a.ApprovalID, optionOfKind(a, "allow_once"))
	})
	res := agenttest.Turn(t, c, "[scenario:tool] create hello.txt", rec)
	if res.Err != nil {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(rec.Text(), "All done") || len(rec.OfType(run.EventToolDone)) == 0 {
		t.Fatalf("text %q events %v", rec.Text(), rec.Types())
	}
	if b, err := os.ReadFile(filepath.Join(e.workspace, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("hello.txt %q %v", b, err)
	}
	rec = agenttest.NewRecorder()
	if res := agenttest.Turn(t, c, "[scenario:recall] again", rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	if !strings.Contains(rec.Text(), "seen 2 marked user messages") {
		t.Fatalf("follow-up lost the first turn: %q", rec.Text())
	}
	e.save(t, "hermes-acp-tool-followup.jsonl")
}

func toolResultHas(srv *fakemodel.Server, s string) bool {
	for _, r := range srv.ModelRequests() {
		for _, m := range r.Conversation.Messages {
			if m.Role == fakemodel.RoleTool && strings.Contains(m.Text, s) {
				return true
			}
		}
	}
	return false
}

// acpTestdata is the ACP adapter's testdata: the usage and rate-limit
// recordings are replayed there (backend/adapter/acp ratelimit_test.go;
// `make record-transcripts`).
const acpTestdata = "../../../backend/adapter/acp/testdata"

// geminiRateLimitReset is the reset the recorded 429 names (a fixed time,
// so the ACP adapter's golden test knows it).
var geminiRateLimitReset = time.Date(2030, 1, 1, 15, 0, 0, 0, time.UTC)

// TestRealGeminiACPUsage records what Gemini CLI reports of a turn's usage
// over ACP, and what it says when the model server answers 429 with reset
// headers (docs/ARCHITECTURE.md §Usage): the ACP adapter replays both.
func TestRealGeminiACPUsage(t *testing.T) {
	t.Run("usage", func(t *testing.T) {
		e := newACPEnv(t, "gemini")
		c := e.start(t, "")
		rec := agenttest.NewRecorder()
		res := agenttest.Turn(t, c, "[scenario:text] hello", rec)
		if res.Err != nil || res.Cancelled {
			t.Fatalf("result %+v", res)
		}
		if res.Usage == nil || res.Usage.InputTokens == 0 || res.Usage.OutputTokens == 0 || res.Usage.Model == "" {
			t.Fatalf("no usage reported: %+v (events %v)", res.Usage, rec.Types())
		}
		e.saveAt(t, filepath.Join(acpTestdata, "gemini-acp-usage.jsonl"))
	})
	t.Run("rate-limit", func(t *testing.T) {
		e := newACPEnv(t, "gemini")
		e.srv.RateLimitUntil(geminiRateLimitReset)
		c := e.start(t, "")
		rec := agenttest.NewRecorder()
		res := agenttest.Turn(t, c, "[scenario:text] hello", rec)
		if res.Err == nil || !strings.Contains(res.Err.Error(), "429") {
			t.Fatalf("want the turn to fail on the 429, got %+v (events %v)", res, rec.Types())
		}
		e.saveAt(t, filepath.Join(acpTestdata, "gemini-acp-rate-limit.jsonl"))
	})
}
