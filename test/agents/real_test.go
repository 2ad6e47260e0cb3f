package agents

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/codex"
	"github.com/hermesdesk/hermesdesk/backend/adapter/hermes"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// The messages and the fake model's scripted answers (testkit/fakemodel/
// scenarios): tool runs `echo hello > hello.txt && cat hello.txt`, then
// answers quoting the tool's output; recall quotes the first marked turn.
const (
	toolMsg   = "[scenario:tool] create hello.txt"
	recallMsg = "[scenario:recall] what did I ask first?"
	toolIntro = "I'll run the command."
	// Each CLI wraps the tool result its own way (JSON, a header, …);
	// the command's output "hello" follows this prefix.
	toolAnswer = "All done: hello.txt written. Tool said: "
	recallWant = "I have seen 2 marked user messages. The first was: " + toolMsg
)

// agentCase is how one real CLI is configured, and what it reports.
type agentCase struct {
	agent string
	name  string // for the compatibility table
	pkg   string // where its version is read (installedVersion)
	cfg   func(t *testing.T) func(home, url string) (adapter.Config, error)
	// toolOutput: the CLI reports the command's output in its tool events
	// (Gemini CLI's ACP mode sends none: shared/reference/agents.md).
	toolOutput bool
	// resumeNextMinute: the CLI cannot resume a session within the clock
	// minute it was created in.
	//
	// Gemini CLI 0.61.0's session/load first starts a fresh chat recording
	// under the requested session id, in chats/session-<UTC minute>-<id
	// prefix>.jsonl. Within the minute the session was created that is the
	// session's own file, so the fresh record's "$set messages" wipes the
	// history and the load fails ("No previous sessions found for this
	// project"); the adapter then starts a new session. In a later minute
	// it writes a separate stray file and the load works. So a follow-up
	// within a minute of a Gemini session's first message loses the
	// context, until warm agents keep the process between runs.
	resumeNextMinute bool
}

var (
	claudeCase = agentCase{agent: "claude", name: "Claude Code", pkg: "npm:@anthropic-ai/claude-code", toolOutput: true, cfg: func(t *testing.T) func(string, string) (adapter.Config, error) {
		bin := agenttest.RequireTool(t, "claude")
		return func(home, url string) (adapter.Config, error) {
			return adapter.Config{Command: []string{bin}, BaseURL: url, APIKey: "dummy", Home: filepath.Join(home, ".claude"),
				Env: []string{"HOME=" + home, "CLAUDE_CODE_MAX_RETRIES=0"}}, nil
		}
	}}
	codexCase = agentCase{agent: "codex", name: "Codex", pkg: "npm:@openai/codex", toolOutput: true, cfg: func(t *testing.T) func(string, string) (adapter.Config, error) {
		bin := agenttest.RequireTool(t, "codex")
		return func(home, url string) (adapter.Config, error) {
			// Codex's bubblewrap sandbox cannot run here (no user
			// namespaces), so the sandbox is off and approvals guard.
			return adapter.Config{Command: []string{bin}, BaseURL: url, APIKey: "dummy", Home: filepath.Join(home, ".codex"),
				Env: []string{"HOME=" + home}, Options: map[string]string{codex.MetaSandbox: "danger-full-access"}}, nil
		}
	}}
	geminiCase = agentCase{agent: "gemini", name: "Gemini CLI", pkg: "npm:@google/gemini-cli", toolOutput: false, resumeNextMinute: true, cfg: func(t *testing.T) func(string, string) (adapter.Config, error) {
		bin := agenttest.RequireTool(t, "gemini")
		return func(home, url string) (adapter.Config, error) { return fakemodel.GeminiACPConfig(bin, home, url) }
	}}
	hermesCase = agentCase{agent: "hermes", name: "Hermes Agent", pkg: "pip:venv:hermes_agent", toolOutput: true, cfg: func(t *testing.T) func(string, string) (adapter.Config, error) {
		bin := agenttest.RequireTool(t, "hermes")
		return func(home, url string) (adapter.Config, error) { return fakemodel.HermesACPConfig(bin, home, url) }
	}}
)

func TestRealClaudeEngine(t *testing.T) { toolThenRecall(t, claudeCase, false) }
func TestRealCodexEngine(t *testing.T)  { toolThenRecall(t, codexCase, false) }
func TestRealGeminiEngine(t *testing.T) { toolThenRecall(t, geminiCase, false) }
func TestRealHermesEngine(t *testing.T) { toolThenRecall(t, hermesCase, false) }

// The same two turns with warm agents, as the app runs them: the second
// run is played by the first run's shim on the same agent process.
func TestRealClaudeWarm(t *testing.T) { toolThenRecall(t, claudeCase, true) }
func TestRealCodexWarm(t *testing.T)  { toolThenRecall(t, codexCase, true) }
func TestRealGeminiWarm(t *testing.T) { toolThenRecall(t, geminiCase, true) }
func TestRealHermesWarm(t *testing.T) { toolThenRecall(t, hermesCase, true) }

// hermes-chat, the one-shot fallback, runs a process per turn that names
// its session only when the turn ends: the engine must store that id so
// the next run resumes it (--resume), and must not keep such an agent
// warm (its process is gone, its pid free for reuse).
func TestRealHermesChatEngineResumes(t *testing.T) {
	bin := agenttest.RequireTool(t, "hermes")
	e := newEnv(t, "hermes-chat", func(home, url string) (adapter.Config, error) {
		return adapter.Config{Command: []string{bin}, BaseURL: url, APIKey: "dummy", Home: filepath.Join(home, ".hermes"),
			Env: []string{"HOME=" + home}, Options: map[string]string{hermes.MetaYolo: "1"}}, nil
	}, withWarmAgents)
	first := e.runTurn(toolMsg)
	if j := e.journal(first.RunID); j.done.Status != run.StatusCompleted {
		t.Fatalf("done %+v; events %v", j.done, j.types())
	}
	native := e.nativeSession()
	if native == "" {
		t.Fatal("the session id Hermes named at the end of the turn was not stored")
	}
	second := e.runTurn(recallMsg)
	j2 := e.journal(second.RunID)
	if j2.done.Status != run.StatusCompleted {
		t.Fatalf("second run done %+v; events %v", j2.done, j2.types())
	}
	if got := strings.TrimSpace(j2.text()); got != recallWant {
		t.Fatalf("second run did not resume the first turn: %q", got)
	}
	if got := e.nativeSession(); got != native {
		t.Fatalf("native session %q → %q: not resumed", native, got)
	}
	if e.bootstrap(first.RunID).Pid == e.bootstrap(second.RunID).Pid {
		t.Fatal("a process-per-turn agent was kept warm")
	}
}

// toolThenRecall: a run whose tool call is allowed through the supervisor
// writes hello.txt and journals the whole turn; a second run in the same
// session starts a fresh shim that resumes the agent's native session (or,
// with warm agents, is played by the first run's shim and agent), and the
// model sees the first turn.
func toolThenRecall(t *testing.T, c agentCase, warm bool) {
	var opts []envOption
	if warm {
		opts = append(opts, withWarmAgents)
	}
	e := newEnv(t, c.agent, c.cfg(t), opts...)
	// Its row of the compatibility table: the warm variant finds the
	// warm follow-up and the plan, the other the cold resume; recordCompat
	// joins the two.
	res := compatRow{Agent: c.agent, Name: c.name, Version: installedVersion(c.pkg)}
	defer func() { recordCompat(t, res) }()
	asked := 0
	var cards []run.ApprovalRequested
	first := e.runTurn(toolMsg, collectCards(t, &cards), e.approveWith("allow_once", &asked))
	j := e.journal(first.RunID)
	res.Tool, res.Approval = calledTool(e.srv), cardVerdict(cards)
	observe(t, &res, j)
	if j.done.Status != run.StatusCompleted {
		t.Fatalf("done %+v; events %v", j.done, j.types())
	}
	checkApprovals(t, j, asked, "allow_once")
	checkTool(t, e, j, c.toolOutput, "completed")
	if b, err := os.ReadFile(filepath.Join(e.workspace, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("hello.txt %q %v", b, err)
	}
	res.ToolRan, res.ToolOutput = true, toolOutputShown(t, j)
	native := e.nativeSession()
	if native == "" {
		t.Fatal("no native session id stored after the first run")
	}

	if c.resumeNextMinute && !warm {
		// The session was created before now: wait for the next minute.
		wait := time.Until(time.Now().UTC().Truncate(time.Minute).Add(time.Minute + 200*time.Millisecond))
		t.Logf("%s cannot resume within the minute it created the session: waiting %v", c.agent, wait.Round(time.Second))
		time.Sleep(wait)
	}
	second := e.runTurn(recallMsg, e.approveWith("allow_once", new(int)))
	j2 := e.journal(second.RunID)
	if j2.done.Status != run.StatusCompleted {
		t.Fatalf("second run done %+v; events %v", j2.done, j2.types())
	}
	if got := strings.TrimSpace(j2.text()); got != recallWant {
		t.Fatalf("second run did not resume the first turn: %q", got)
	}
	// The agent's replay of the loaded history is not this run's output.
	if n := len(j2.ofType(run.EventToolStarted)) + len(j2.ofType(run.EventApprovalRequest)); n != 0 {
		t.Fatalf("the first turn's tool call reappeared in the second run: %v", j2.types())
	}
	b1, b2 := e.bootstrap(first.RunID), e.bootstrap(second.RunID)
	if same := b1.Pid == b2.Pid && b1.AgentPid == b2.AgentPid && b2.AgentPid != 0; same != warm {
		t.Fatalf("warm=%v but shim/agent pids %d/%d then %d/%d", warm, b1.Pid, b1.AgentPid, b2.Pid, b2.AgentPid)
	}
	if got := e.nativeSession(); got != native {
		t.Fatalf("native session %q → %q: not resumed", native, got)
	}
	reqs := e.srv.ModelRequests()
	if !conversationHas(reqs, "recall", fakemodel.RoleUser, toolMsg) {
		t.Fatal("the model's recall request did not carry the first user message")
	}
	if !conversationHas(reqs, "recall", fakemodel.RoleAssistant, "All done") {
		t.Fatal("the model's recall request did not carry the first answer")
	}
	observe(t, &res, j2)
	if warm {
		res.Warm = true
		// A plan through the agent's own todo tool: only recorded.
		plan := e.runTurn(planMsg, e.approveWith("allow_once", new(int)))
		observe(t, &res, e.journal(plan.RunID))
	} else {
		res.Resume = true
	}
}

// checkApprovals: every approval.requested the follower answered has its
// approval.resolved (committed by the supervisor's control) after it.
func checkApprovals(t *testing.T, j *journal, asked int, kind string) {
	t.Helper()
	req, res := j.ofType(run.EventApprovalRequest), j.ofType(run.EventApprovalResolved)
	if len(req) != asked || len(res) != asked {
		t.Fatalf("%d approvals asked, journal has %d requested / %d resolved: %v", asked, len(req), len(res), j.types())
	}
	for i := range req {
		var a run.ApprovalRequested
		var r run.ApprovalResolved
		decode(t, req[i], &a)
		decode(t, res[i], &r)
		want := ""
		for _, o := range a.Options {
			if o.Kind == kind {
				want = o.ID
			}
		}
		if r.ApprovalID != a.ApprovalID || r.Choice != want || res[i].Seq < req[i].Seq {
			t.Fatalf("approval %+v resolved as %+v (want %q)", a, r, want)
		}
	}
}

// checkTool: the turn's text streams in order around one shell tool call
// whose tool.done has the wanted status (and the command's real output
// where the CLI reports it), and the answer after it quotes the output.
func checkTool(t *testing.T, e *env, j *journal, output bool, status string) {
	t.Helper()
	started, done := j.ofType(run.EventToolStarted), j.ofType(run.EventToolDone)
	if len(started) == 0 || len(done) == 0 {
		t.Fatalf("no tool events: %v", j.types())
	}
	ids := map[string]int64{}
	for _, ev := range started {
		var s run.ToolStarted
		decode(t, ev, &s)
		ids[s.ToolCallID] = ev.Seq
	}
	// The shell call is the last one to finish (an agent may read or list
	// first); it must close a call that started before it.
	last := done[len(done)-1]
	var d run.ToolDone
	decode(t, last, &d)
	if at, ok := ids[d.ToolCallID]; !ok || at > last.Seq || d.Status != status {
		t.Fatalf("tool.done %+v at %d; started %v", d, last.Seq, ids)
	}
	if output && !strings.Contains(d.Output, "hello") {
		t.Fatalf("tool.done has not the command's output: %+v", d)
	}
	// The deltas, in seq order, say the intro before the first tool call
	// and the answer after the last tool result.
	first := started[0].Seq
	if got := strings.TrimSpace(j.textBefore(first)); got != toolIntro {
		t.Fatalf("text before the tool %q, want %q", got, toolIntro)
	}
	after := strings.TrimSpace(j.textAfter(last.Seq))
	if !strings.HasPrefix(after, toolAnswer) {
		t.Fatalf("answer after the tool %q, want %q…", after, toolAnswer)
	}
	if quoted := strings.TrimPrefix(after, toolAnswer); status == "completed" && !strings.Contains(quoted, "hello") {
		t.Fatalf("the answer does not quote the command's output: %q", after)
	}
}

// conversationHas reports whether a request of the scenario carried a
// message of role containing s.
func conversationHas(reqs []fakemodel.Request, scenario, role, s string) bool {
	for _, r := range reqs {
		if r.Scenario != scenario {
			continue
		}
		for _, m := range r.Conversation.Messages {
			if m.Role == role && strings.Contains(m.Text, s) {
				return true
			}
		}
	}
	return false
}

// A denied approval through the supervisor: the command never runs, the
// tool call ends denied, and the run still completes with the model's
// answer.
func TestRealClaudeEngineDeny(t *testing.T) {
	e := newEnv(t, claudeCase.agent, claudeCase.cfg(t))
	asked := 0
	res := e.runTurn(toolMsg, e.approveWith("reject_once", &asked))
	j := e.journal(res.RunID)
	if j.done.Status != run.StatusCompleted {
		t.Fatalf("done %+v; events %v", j.done, j.types())
	}
	if asked != 1 {
		t.Fatalf("%d approvals asked: %v", asked, j.types())
	}
	checkApprovals(t, j, asked, "reject_once")
	checkTool(t, e, j, false, "denied")
	if !strings.Contains(j.text(), "All done") {
		t.Fatalf("no answer after the denial: %q", j.text())
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "hello.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("hello.txt exists although denied (%v)", err)
	}
}

// Cancel mid-stream through the supervisor: one done{cancelled}, the
// stream cut short, and the agent's whole process group gone.
func TestRealClaudeEngineCancel(t *testing.T) {
	e := newEnv(t, claudeCase.agent, claudeCase.cfg(t))
	pid := 0
	var cancelRes run.ControlResult
	var cancelErr error
	res := e.runTurn("[scenario:slow] stream for a while", func(ev run.Event) {
		if ev.Type != run.EventTokenDelta || pid != 0 {
			return
		}
		pid = e.agentPid(ev.RunID)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cancelRes, cancelErr = e.st.Supervisor.Cancel(ctx, ev.RunID)
	})
	if cancelErr != nil || cancelRes.Status != run.ControlAccepted {
		t.Fatalf("cancel: %+v %v", cancelRes, cancelErr)
	}
	j := e.journal(res.RunID)
	if j.done.Status != run.StatusCancelled {
		t.Fatalf("done %+v; events %v", j.done, j.types())
	}
	if n := len(j.ofType(run.EventTokenDelta)); n >= 600 {
		t.Fatalf("the stream was not interrupted: %d deltas", n)
	}
	r, err := e.st.Service.Run(context.Background(), res.RunID)
	if err != nil || r.Status != run.StatusCancelled || !r.Terminal {
		t.Fatalf("run %+v %v", r, err)
	}
	if pid <= 0 {
		t.Fatal("the shim never recorded the agent's pid")
	}
	if !groupGone(pid, 10*time.Second) {
		t.Fatalf("the agent's process group %d is still alive", pid)
	}
}

// groupGone polls until no process of group pgid is left (orphans are
// reaped by init a moment after they die) or d passes.
func groupGone(pgid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for syscall.Kill(-pgid, 0) == nil {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// An agent's "options" setting reaches the adapter through the shim: Codex
// told never to ask, with no sandbox, runs the command without an approval.
func TestRealCodexEngineOptions(t *testing.T) {
	cfg := codexCase.cfg(t)
	e := newEnv(t, codexCase.agent, func(home, url string) (adapter.Config, error) {
		c, err := cfg(home, url)
		c.Options[codex.MetaApprovalPolicy] = "never"
		return c, err
	})
	res := e.runTurn(toolMsg, func(ev run.Event) {
		if ev.Type == run.EventApprovalRequest {
			t.Errorf("approval asked although the policy is never: %s", ev.Payload)
			_, _ = e.st.Supervisor.Cancel(context.Background(), ev.RunID)
		}
	})
	j := e.journal(res.RunID)
	if j.done.Status != run.StatusCompleted {
		t.Fatalf("done %+v; events %v", j.done, j.types())
	}
	checkTool(t, e, j, true, "completed")
	if b, err := os.ReadFile(filepath.Join(e.workspace, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("hello.txt %q %v", b, err)
	}
}
