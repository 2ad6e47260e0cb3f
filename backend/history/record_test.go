package history_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/claude"
	"github.com/hermesdesk/hermesdesk/backend/adapter/codex"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// TestRecordHistories re-records the history files under testdata from the
// REAL Claude Code and Codex CLIs (installed under .tools) against the fake
// model: a reasoning turn, a tool call (approved), then a new process that
// resumes the session by id. It runs only with HERMESDESK_RECORD=1; temp
// dirs and the server's port are normalised, so the committed files read
// like a person's, under /home and /work.
func TestRecordHistories(t *testing.T) {
	if os.Getenv("HERMESDESK_RECORD") != "1" {
		t.Skip("HERMESDESK_RECORD=1 re-records testdata from the real CLIs")
	}
	for _, tc := range []struct {
		agent, bin, home, glob, allow string
		start                         func() adapter.Adapter
		meta                          map[string]string
	}{
		{"claude", "claude", ".claude", "projects/*/*.jsonl", claude.OptionAllow, func() adapter.Adapter { return claude.New() }, nil},
		{"codex", "codex", ".codex", "sessions/*/*/*/rollout-*.jsonl", codex.DecisionAccept, func() adapter.Adapter { return codex.New() },
			map[string]string{codex.MetaSandbox: "danger-full-access"}},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			bin := agenttest.RequireTool(t, tc.bin)
			srv := fakemodel.Start(t)
			root := t.TempDir()
			work, home := filepath.Join(root, "work"), filepath.Join(root, "home")
			agenttest.MkdirAll(t, work, home, filepath.Join(root, "tmp"))
			cfg := adapter.Config{Command: []string{bin}, BaseURL: srv.URL, APIKey: "dummy", Home: filepath.Join(home, tc.home),
				Env: []string{"HOME=" + home, "TMPDIR=" + filepath.Join(root, "tmp"), "CLAUDE_CODE_MAX_RETRIES=0"}}
			launcher := agenttest.NewLauncher(t)
			start := func(native string) adapter.Conn {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				c, err := tc.start().Start(ctx, adapter.StartRequest{Workspace: work, NativeSessionID: native, Config: cfg, Metadata: tc.meta},
					adapter.Host{Launcher: launcher, Log: os.Stderr})
				if err != nil {
					t.Fatal(err)
				}
				return c
			}
			c := start("")
			if res := agenttest.Turn(t, c, "[scenario:reasoning] think, then answer", agenttest.NewRecorder()); res.Err != nil {
				t.Fatal(res.Err)
			}
			rec := agenttest.NewRecorder()
			rec.OnApproval(func(a run.ApprovalRequested) {
				if err := c.RespondApproval(context.Background(), a.ApprovalID, tc.allow); err != nil {
					t.Errorf("respond: %v", err)
				}
			})
			if res := agenttest.Turn(t, c, "[scenario:tool] create hello.txt", rec); res.Err != nil {
				t.Fatal(res.Err)
			}
			sid := c.NativeSessionID()
			_ = c.Close()
			c2 := start(sid)
			rec = agenttest.NewRecorder()
			if res := agenttest.Turn(t, c2, "[scenario:recall] third", rec); res.Err != nil {
				t.Fatal(res.Err)
			}
			_ = c2.Close()
			if !strings.Contains(rec.Text(), "seen 3 marked user messages") {
				t.Fatalf("resume lost the session: %q", rec.Text())
			}
			files, _ := filepath.Glob(filepath.Join(home, tc.home, tc.glob))
			sort.Strings(files)
			if len(files) == 0 {
				t.Fatalf("no history files under %s", filepath.Join(home, tc.home))
			}
			replace := strings.NewReplacer(root+"/work", "/work", root+"/home", "/home", root, "/tmp", srv.URL, "http://127.0.0.1:PORT",
				strings.ReplaceAll(root+"/work", "/", "-"), "-work")
			out := filepath.Join("testdata", tc.agent)
			_ = os.RemoveAll(out)
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				rel, _ := filepath.Rel(filepath.Join(home, tc.home), f)
				dst := filepath.Join(out, replace.Replace(rel))
				agenttest.MkdirAll(t, filepath.Dir(dst))
				if err := os.WriteFile(dst, []byte(replace.Replace(string(b))), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("recorded %s", dst)
			}
		})
	}
}
