package history_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/acp"
	"github.com/hermesdesk/hermesdesk/backend/adapter/claude"
	"github.com/hermesdesk/hermesdesk/backend/adapter/codex"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// recording is one agent whose history files TestRecordHistories records.
type recording struct {
	agent, bin string
	home       string   // the agent's folder under HOME
	globs      []string // its history files, under home
	// config is how the agent runs against the fake model (home is HOME).
	config func(bin, home, url string) (adapter.Config, error)
	start  func(cfg adapter.Config) adapter.Adapter
	allow  func(a run.ApprovalRequested) string
	meta   map[string]string
	// sameProcess: the third turn runs on the first process (the agent
	// cannot load its session in a new one; see the README there).
	sameProcess bool
	// settle: the agent writes its history after the turn has ended (Qwen
	// Code); wait for each turn's answer in its files before closing it.
	settle bool
}

func acpAllow(a run.ApprovalRequested) string {
	for _, o := range a.Options {
		if o.Kind == "allow_once" {
			return o.ID
		}
	}
	return ""
}

func acpAdded(id string) func(adapter.Config) adapter.Adapter {
	return func(cfg adapter.Config) adapter.Adapter { return acp.New(id, id, cfg.Command) }
}

var recordings = []recording{
	{agent: "claude", bin: "claude", home: ".claude", globs: []string{"projects/*/*.jsonl"},
		config: func(bin, home, url string) (adapter.Config, error) {
			return adapter.Config{Command: []string{bin}, BaseURL: url, APIKey: "dummy", Home: filepath.Join(home, ".claude"),
				Env: []string{"HOME=" + home, "CLAUDE_CODE_MAX_RETRIES=0"}}, nil
		},
		start: func(adapter.Config) adapter.Adapter { return claude.New() }, allow: func(run.ApprovalRequested) string { return claude.OptionAllow }},
	{agent: "codex", bin: "codex", home: ".codex", globs: []string{"sessions/*/*/*/rollout-*.jsonl"},
		config: func(bin, home, url string) (adapter.Config, error) {
			return adapter.Config{Command: []string{bin}, BaseURL: url, APIKey: "dummy", Home: filepath.Join(home, ".codex"),
				Env: []string{"HOME=" + home}}, nil
		},
		start: func(adapter.Config) adapter.Adapter { return codex.New() }, allow: func(run.ApprovalRequested) string { return codex.DecisionAccept },
		meta: map[string]string{codex.MetaSandbox: "danger-full-access"}},
	{agent: "gemini", bin: "gemini", home: ".gemini", globs: []string{"projects.json", "tmp/*/chats/*", "tmp/*/.project_root"},
		sameProcess: true,
		config:      fakemodel.GeminiACPConfig, start: func(adapter.Config) adapter.Adapter { return agents.Gemini() }, allow: acpAllow},
	{agent: "qwen", bin: "qwen", home: ".qwen", globs: []string{"projects/*/chats/*.jsonl"}, settle: true,
		config: fakemodel.QwenACPConfig, start: acpAdded("qwen"), allow: acpAllow},
	{agent: "opencode", bin: "opencode", home: ".local/share/opencode", globs: []string{"opencode.db"},
		config: fakemodel.OpenCodeACPConfig, start: acpAdded("opencode"), allow: acpAllow},
	{agent: "hermes", bin: "hermes", home: ".hermes", globs: []string{"state.db"},
		config: fakemodel.HermesACPConfig, start: func(adapter.Config) adapter.Adapter { return agents.Hermes() }, allow: acpAllow},
}

// TestRecordHistories re-records the history files under testdata from the
// REAL CLIs (installed under .tools, scripts/install-agents.sh) against the
// fake model: a reasoning turn, a tool call (approved), then a new process
// that resumes the session by id (claude --resume, Codex thread/resume, ACP
// session/load). It runs only with HERMESDESK_RECORD=1 (a name after it
// records only that agent); temp dirs and the server's port are
// normalised, so the committed files read like a person's, under /home and
// /work (inside SQLite files too).
func TestRecordHistories(t *testing.T) {
	rec := os.Getenv("HERMESDESK_RECORD")
	if rec == "" || rec == "0" {
		t.Skip("HERMESDESK_RECORD=1 (or =AGENT) re-records testdata from the real CLIs")
	}
	for _, tc := range recordings {
		if rec != "1" && rec != tc.agent {
			continue
		}
		t.Run(tc.agent, func(t *testing.T) { record(t, tc) })
	}
}

func record(t *testing.T, tc recording) {
	bin := agenttest.RequireTool(t, tc.bin)
	srv := fakemodel.Start(t)
	root := t.TempDir()
	work, home := filepath.Join(root, "work"), filepath.Join(root, "home")
	agenttest.MkdirAll(t, work, home, filepath.Join(root, "tmp"))
	cfg, err := tc.config(bin, home, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Env = append(cfg.Env, "TMPDIR="+filepath.Join(root, "tmp"))
	launcher := agenttest.NewLauncher(t)
	start := func(native string) adapter.Conn {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		c, err := tc.start(cfg).Start(ctx, adapter.StartRequest{Workspace: work, NativeSessionID: native, Config: cfg, Metadata: tc.meta},
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
	r := agenttest.NewRecorder()
	r.OnApproval(func(a run.ApprovalRequested) {
		if err := c.RespondApproval(context.Background(), a.ApprovalID, tc.allow(a)); err != nil {
			t.Errorf("respond: %v", err)
		}
	})
	if res := agenttest.Turn(t, c, "[scenario:tool] create hello.txt", r); res.Err != nil {
		t.Fatal(res.Err)
	}
	sid := c.NativeSessionID()
	if tc.settle {
		waitForText(t, filepath.Join(home, tc.home), tc.globs, "All done")
	}
	if !tc.sameProcess {
		_ = c.Close()
	}
	if os.Getenv("HERMESDESK_DUMP") == "1" {
		_ = filepath.Walk(home, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				t.Logf("after close: %s (%d bytes)", p, info.Size())
				if b, err := os.ReadFile(p); err == nil && info.Size() < 20000 {
					t.Logf("%s", b)
				}
			}
			return nil
		})
	}
	c2 := c
	if !tc.sameProcess {
		c2 = start(sid)
	}
	r = agenttest.NewRecorder()
	if res := agenttest.Turn(t, c2, "[scenario:recall] third", r); res.Err != nil {
		t.Fatal(res.Err)
	}
	if tc.settle {
		waitForText(t, filepath.Join(home, tc.home), tc.globs, "seen 3 marked user messages")
	}
	_ = c2.Close()
	if !strings.Contains(r.Text(), "seen 3 marked user messages") {
		t.Fatalf("resume lost the session: %q", r.Text())
	}
	var files []string
	for _, g := range tc.globs {
		m, _ := filepath.Glob(filepath.Join(home, tc.home, g))
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("no history files under %s", filepath.Join(home, tc.home))
	}
	replace := strings.NewReplacer(root+"/work", "/work", root+"/home", "/home", root, "/tmp", srv.URL, "http://127.0.0.1:PORT",
		strings.TrimPrefix(root, "/")+"/work", "work", // OpenCode's path relative to its project root "/"
		strings.ReplaceAll(root+"/work", "/", "-"), "-work")
	out := filepath.Join("testdata", tc.agent)
	_ = os.RemoveAll(out)
	for _, f := range files {
		rel, _ := filepath.Rel(filepath.Join(home, tc.home), f)
		dst := filepath.Join(out, replace.Replace(rel))
		agenttest.MkdirAll(t, filepath.Dir(dst))
		if strings.HasSuffix(f, ".jsonl") && !containsFile(f, "[scenario:") {
			continue // a session the agent opened and never used (Gemini CLI writes one per start)
		}
		if strings.HasSuffix(f, ".db") {
			copyDB(t, f, dst, replace)
		} else {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, []byte(replace.Replace(string(b))), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("recorded %s", dst)
	}
	checkResumable(t, tc, out, sid)
}

// checkResumable: the recorded conversation reads with the id its agent
// loaded it by, so Continue resumes it in the agent (docs/ARCHITECTURE.md
// §History). (Gemini CLI 0.61.0 answers session/load in a new process with
// "No previous sessions found for this project" although its chat is there
// under this same id: sameProcess.)
func checkResumable(t *testing.T, tc recording, root, sid string) {
	f, ok := history.FormatOf(tc.agent)
	if !ok {
		return
	}
	files, err := f.Discover(root)
	if err != nil || len(files) != 1 {
		t.Fatalf("recorded sessions %v %v", files, err)
	}
	s, err := history.Read(f, files[0])
	if err != nil {
		t.Fatal(err)
	}
	id := s.Origin.ResumeID
	if id == "" {
		id = s.Origin.NativeID
	}
	if id != sid {
		t.Fatalf("the file reads as session %q; the agent resumed %q", id, sid)
	}
}

// waitForText waits until one of the files holds s (an agent that writes
// its history after it answered).
func waitForText(t *testing.T, dir string, globs []string, s string) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, g := range globs {
			m, _ := filepath.Glob(filepath.Join(dir, g))
			for _, f := range m {
				if b, _ := os.ReadFile(f); strings.Contains(string(b), s) {
					return
				}
			}
		}
		time.Sleep(100 * time.Millisecond) // a recorder's wait on another program's file; not product code
	}
	t.Fatalf("%q never reached the history under %s", s, dir)
}

// copyDB copies a SQLite history (WAL folded in by the backup) and rewrites
// the temp paths in every text column, then vacuums it small.
func copyDB(t *testing.T, src, dst string, replace *strings.Replacer) {
	_ = os.Remove(dst)
	db, err := sql.Open("sqlite3", "file:"+src+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`VACUUM INTO ?`, dst); err != nil {
		t.Fatal(err)
	}
	out, err := sql.Open("sqlite3", dst)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	tables := queryStrings(t, out, `SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'`)
	virtual := queryStrings(t, out, `SELECT name FROM sqlite_master WHERE type='table' AND sql LIKE 'CREATE VIRTUAL%'`)
	for _, tbl := range tables {
		if slices.ContainsFunc(virtual, func(v string) bool { return tbl == v || strings.HasPrefix(tbl, v+"_") }) {
			continue // a search index: rewriting it behind its back would corrupt it, and no importer reads it
		}
		cols := queryStrings(t, out, fmt.Sprintf(`SELECT name FROM pragma_table_info('%s')`, tbl))
		for _, col := range cols {
			rows, err := out.Query(fmt.Sprintf(`SELECT rowid, "%s" FROM "%s" WHERE typeof("%s") = 'text'`, col, tbl, col))
			if err != nil {
				continue // a virtual table or one without rowid: nothing of ours in it
			}
			type fix struct {
				id  int64
				val string
			}
			var fixes []fix
			for rows.Next() {
				var f fix
				if rows.Scan(&f.id, &f.val) == nil {
					if nv := replace.Replace(f.val); nv != f.val {
						fixes = append(fixes, fix{f.id, nv})
					}
				}
			}
			rows.Close()
			for _, f := range fixes {
				if _, err := out.Exec(fmt.Sprintf(`UPDATE "%s" SET "%s" = ? WHERE rowid = ?`, tbl, col), f.val, f.id); err != nil {
					t.Fatalf("rewrite %s.%s: %v", tbl, col, err)
				}
			}
		}
	}
	if _, err := out.Exec(`VACUUM`); err != nil {
		t.Fatal(err)
	}
}

func queryStrings(t *testing.T, db *sql.DB, q string) []string {
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func containsFile(p, s string) bool {
	b, _ := os.ReadFile(p)
	return strings.Contains(string(b), s)
}
