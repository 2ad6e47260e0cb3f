package agents

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// The third-party ACP agents of shared/reference/acp-agents.md that
// install from npm or PyPI (scripts/install-agents.sh), each through the
// whole engine with warm agents as the app runs them: a tool turn whose
// approval is answered, a warm follow-up on the same agent process, a
// cold resume by a fresh agent after the warm one is retired, and a turn
// that asks for a plan. Each run's
// findings go to the compatibility table (compat.go).

// planMsg asks for a plan through the agent's own todo tool
// (testkit/fakemodel/scenarios/plan.json).
const planMsg = "[scenario:plan] plan the work"

// toolCommand is what the tool scenario runs (testkit/fakemodel/scenarios/tool.json).
const toolCommand = "echo hello > hello.txt && cat hello.txt"

// acpCase is one third-party ACP agent.
type acpCase struct {
	id      string // the agent's own id: its fakemodel.ACPRecipes key and table row
	name    string
	program string // under .tools
	// pkg names what the version is read from: "npm:<package>" or
	// "pip:<venv>:<dist>".
	pkg   string
	login bool // needs fakemodel.KimiLogin before it opens a session
	// builtIn: Hermes Desk has an entry of its own under this id (its
	// settings are configured, nothing is added).
	builtIn bool
	note    string // for the table
	// history: where the agent writes its own session history (a glob under
	// its HOME) when it writes it after the turn has ended; the test waits
	// for the follow-up to be there before it retires the agent, as a
	// person would not close it within the same second (Qwen Code writes
	// its chat file after it answers, and an agent closed at once loses
	// that turn on resume).
	history string
	// settings: the agent reports its models and modes as session config
	// options (docs/ARCHITECTURE.md §Session config options): the header must offer a model picker and a
	// mode by name.
	settings bool
}

var acpCases = []acpCase{
	{id: "opencode", name: "OpenCode", program: "opencode", pkg: "npm:opencode-ai", settings: true},
	{id: "qwen", name: "Qwen Code", program: "qwen", pkg: "npm:@qwen-code/qwen-code", history: ".qwen/projects/*/chats/*.jsonl"},
	{id: "copilot", name: "GitHub Copilot CLI", program: "copilot", pkg: "npm:@github/copilot"},
	{id: "claude-agent-acp", name: "Claude Agent ACP", program: "claude-agent-acp", pkg: "npm:@zed-industries/claude-agent-acp"},
	// The card must show argv ["/bin/bash","-lc","echo … && cat …"]
	// shell-quoted; the output comes in rawOutput.formatted_output.
	{id: "codex-acp", name: "codex-acp", program: "codex-acp", pkg: "npm:@zed-industries/codex-acp", builtIn: true, settings: true},
	// Its request_permission names only the toolCallId of the call it
	// announced just before (with rawInput.command).
	{id: "vibe", name: "Mistral Vibe", program: "vibe-acp", pkg: "pip:venv-vibe:mistral_vibe", settings: true},
	// Its request_permission has no rawInput, only a title ("Shell: echo
	// …"); its Shell runs in a terminal Hermes Desk runs (terminal/create).
	{id: "kimi", name: "Kimi CLI", program: "kimi", pkg: "pip:venv-kimi:kimi_cli", login: true,
		note: "needs `kimi login` (the test stands dummy credentials in)"},
}

func acpCaseByID(t *testing.T, id string) acpCase {
	for _, c := range acpCases {
		if c.id == id {
			return c
		}
	}
	t.Fatalf("no ACP case %q", id)
	return acpCase{}
}

func TestRealACPOpenCode(t *testing.T)       { acpToolTurns(t, acpCaseByID(t, "opencode")) }
func TestRealACPQwen(t *testing.T)           { acpToolTurns(t, acpCaseByID(t, "qwen")) }
func TestRealACPCopilot(t *testing.T)        { acpToolTurns(t, acpCaseByID(t, "copilot")) }
func TestRealACPClaudeAgentACP(t *testing.T) { acpToolTurns(t, acpCaseByID(t, "claude-agent-acp")) }
func TestRealACPCodexACP(t *testing.T)       { acpToolTurns(t, acpCaseByID(t, "codex-acp")) }
func TestRealACPVibe(t *testing.T)           { acpToolTurns(t, acpCaseByID(t, "vibe")) }
func TestRealACPKimi(t *testing.T)           { acpToolTurns(t, acpCaseByID(t, "kimi")) }

// Kimi CLI without a login: its session/new answers auth-required (-32000
// with authMethods naming `kimi login`). The run must end failed, at once,
// saying what to run.
func TestRealACPKimiAuthRequired(t *testing.T) {
	c := acpCaseByID(t, "kimi")
	c.login = false
	e := addAgent(t, c)
	res := e.runTurn(toolMsg)
	j := e.journal(res.RunID)
	if j.done.Status != run.StatusFailed {
		t.Fatalf("done %+v; events %v", j.done, j.types())
	}
	t.Logf("auth-required shows: %q", j.done.Error)
	if !strings.Contains(j.done.Error, "kimi login") {
		t.Errorf("the failure does not say to run `kimi login`: %q", j.done.Error)
	}
	if n := len(e.srv.ModelRequests()); n != 0 {
		t.Errorf("%d model requests without a login", n)
	}
	if strings.ContainsAny(j.done.Error, "{}") {
		t.Errorf("the failure carries raw JSON instead of a sentence: %q", j.done.Error)
	}
}

// addAgent adds c under its own id and name, as a person adds an agent
// (Settings → Agents → Add, POST /api/agents), configured from its recipe
// and pointed at the env's fake model server, and opens a session on it
// (the one place that knows how an agent is added).
func addAgent(t *testing.T, c acpCase, opts ...envOption) *env {
	t.Helper()
	recipe := fakemodel.ACPRecipes[c.id]
	bin := agenttest.RequireTool(t, c.program)
	return newEnv(t, c.id, func(home, url string) (adapter.Config, error) {
		cfg, err := recipe(bin, home, url)
		if err == nil && c.login {
			err = fakemodel.KimiLogin(cfg)
		}
		if !c.builtIn {
			cfg.Kind, cfg.Name = "acp", c.name
		}
		return cfg, err
	}, opts...)
}

func acpToolTurns(t *testing.T, c acpCase) {
	res := compatRow{Agent: c.id, Name: c.name, Version: installedVersion(c.pkg), Note: c.note}
	e := addAgent(t, c, withWarmAgents)
	defer func() { recordCompat(t, res) }()

	// 1. The tool turn, its approval allowed.
	var cards []run.ApprovalRequested
	asked := 0
	first := e.runTurn(toolMsg, collectCards(t, &cards), e.approveWith("allow_once", &asked))
	j := e.journal(first.RunID)
	res.Tool = calledTool(e.srv)
	observe(t, &res, j)
	if j.done.Status != run.StatusCompleted {
		t.Fatalf("done %+v; events %v", j.done, j.types())
	}
	// The file on disk, not the model's word for it (codex-acp read-only
	// claimed success while nothing was written).
	if b, err := os.ReadFile(filepath.Join(e.workspace, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("hello.txt %q %v", b, err)
	}
	res.ToolRan = true
	if asked == 0 {
		t.Errorf("%s ran the command without asking: %v", c.id, j.types())
	}
	checkApprovals(t, j, asked, "allow_once")
	res.Approval = cardVerdict(cards)
	if res.Approval != approvalExact && res.Approval != approvalInTitle {
		t.Errorf("the approval card does not show the exact command %q: %+v", toolCommand, cards)
	}
	res.ToolOutput = toolOutputShown(t, j)
	if !res.ToolOutput {
		t.Errorf("the tool card has not the command's output: %v", j.ofType(run.EventToolDone))
	}

	// 2. A warm follow-up: the same shim and agent process, the context kept.
	second := e.runTurn(recallMsg, e.approveWith("allow_once", new(int)))
	j2 := e.journal(second.RunID)
	observe(t, &res, j2)
	b1, b2 := e.bootstrap(first.RunID), e.bootstrap(second.RunID)
	switch got := strings.TrimSpace(j2.text()); {
	case j2.done.Status != run.StatusCompleted:
		t.Errorf("warm follow-up done %+v; events %v", j2.done, j2.types())
	case b1.AgentPid == 0 || b1.AgentPid != b2.AgentPid:
		t.Errorf("the follow-up was not played by the warm agent: agent pids %d then %d", b1.AgentPid, b2.AgentPid)
	case got != recallWant:
		t.Errorf("the warm follow-up lost the first turn: %q", got)
	default:
		res.Warm = true
	}

	// 3. A cold resume: the warm agent retired, a fresh one loads the
	// agent's native session.
	native := e.nativeSession()
	if c.history != "" {
		e.waitFor("the agent to write the follow-up to its own history", 20*time.Second, func() bool {
			files, _ := filepath.Glob(filepath.Join(e.home, c.history))
			for _, f := range files {
				if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "marked user messages") {
					return true
				}
			}
			return false
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	retired := e.st.Supervisor.RetireWarmSession(ctx, e.session.ID)
	cancel()
	if !retired {
		t.Fatal("the session's warm agent could not be retired")
	}
	third := e.runTurn(recallMsg, e.approveWith("allow_once", new(int)))
	j3 := e.journal(third.RunID)
	observe(t, &res, j3)
	b3 := e.bootstrap(third.RunID)
	want := "I have seen 3 marked user messages. The first was: " + toolMsg
	switch got := strings.TrimSpace(j3.text()); {
	case j3.done.Status != run.StatusCompleted:
		res.Note = "cold resume: " + j3.done.Error
		t.Errorf("cold resume done %+v; events %v", j3.done, j3.types())
	case b3.AgentPid == b2.AgentPid:
		t.Errorf("the third run reused the retired agent %d", b3.AgentPid)
	case native == "" || e.nativeSession() != native:
		t.Errorf("native session %q → %q: not resumed", native, e.nativeSession())
	case got != want:
		res.Note = "cold resume lost the earlier turns"
		t.Errorf("the cold resume lost the earlier turns: %q", got)
	default:
		res.Resume = true
	}

	if c.settings && !(res.Models && res.Modes) {
		t.Errorf("%s reports its models and modes as session config options, but the header offers model picker %v, modes %v", c.id, res.Models, res.Modes)
	}

	// 4. A plan, where the agent has a todo tool: only recorded (the
	// plan column), an agent without one is not wrong.
	fourth := e.runTurn(planMsg, e.approveWith("allow_once", new(int)))
	observe(t, &res, e.journal(fourth.RunID))
	for _, r := range e.srv.ModelRequests() {
		if r.Scenario == "plan" && r.Step == 0 {
			t.Logf("plan: the model called %q of %v", r.Tool, r.Conversation.Tools)
			break
		}
	}
}

// collectCards keeps each approval card as the journal holds it.
func collectCards(t *testing.T, cards *[]run.ApprovalRequested) onEvent {
	return func(ev run.Event) {
		if ev.Type == run.EventApprovalRequest {
			var a run.ApprovalRequested
			decode(t, ev, &a)
			*cards = append(*cards, a)
		}
	}
}

// approvalExact is the verdict of a card that names the command exactly;
// approvalInTitle of one whose agent gave no command but a title that names
// it exactly (Kimi CLI: "Shell: echo …"), shown as the agent wrote it.
const (
	approvalExact   = "exact command"
	approvalInTitle = "exact command, in the agent's title"
)

// cardVerdict says what the shell command's approval card showed: the
// exact command — as is, or shell-quoted behind an argv's shell and flag
// (`/bin/bash -lc 'echo …'`) — or else what it did show.
func cardVerdict(cards []run.ApprovalRequested) string {
	if len(cards) == 0 {
		return "not asked"
	}
	quoted := "'" + strings.ReplaceAll(toolCommand, "'", `'\''`) + "'"
	var shown []string
	for _, a := range cards {
		cmd := strings.TrimSpace(a.Command)
		if cmd == toolCommand || strings.HasSuffix(cmd, " "+quoted) {
			return approvalExact
		}
		if cmd == "" && strings.Contains(a.Title, toolCommand) {
			return approvalInTitle
		}
		// What the card leads with: its command, else its title, else
		// its description.
		s := cmd
		for _, alt := range []string{a.Title, a.Description} {
			if s == "" {
				s = strings.TrimSpace(alt)
			}
		}
		shown = append(shown, s)
	}
	return "shows: " + clipText(strings.Join(shown, " | "), 80)
}

// toolOutputShown: some tool card of the run carries the command's output.
func toolOutputShown(t *testing.T, j *journal) bool {
	for _, ev := range j.ofType(run.EventToolDone) {
		var d run.ToolDone
		decode(t, ev, &d)
		if strings.Contains(d.Output, "hello") {
			return true
		}
	}
	for _, ev := range j.ofType(run.EventToolUpdated) {
		var u run.ToolUpdated
		decode(t, ev, &u)
		if strings.Contains(u.Output, "hello") {
			return true
		}
	}
	return false
}

// calledTool names the shell tool the fake model called (the agent's).
func calledTool(srv *fakemodel.Server) string {
	for _, r := range srv.ModelRequests() {
		if r.Tool != "" {
			return r.Tool
		}
	}
	return ""
}

// installedVersion reads an agent's installed version: an npm package's
// package.json under .tools/npm, or a venv's dist-info directory name.
func installedVersion(pkg string) string {
	tools := agenttest.ToolsDir()
	kind, rest, _ := strings.Cut(pkg, ":")
	switch kind {
	case "npm":
		b, err := os.ReadFile(filepath.Join(tools, "npm", "node_modules", rest, "package.json"))
		if err != nil {
			return ""
		}
		var p struct {
			Version string `json:"version"`
		}
		_ = json.Unmarshal(b, &p)
		return p.Version
	case "pip":
		venv, dist, _ := strings.Cut(rest, ":")
		m, _ := filepath.Glob(filepath.Join(tools, venv, "lib", "python3.*", "site-packages", dist+"-*.dist-info"))
		if len(m) == 0 {
			return ""
		}
		return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(m[0]), dist+"-"), ".dist-info")
	}
	return ""
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
