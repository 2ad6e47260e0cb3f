package agents

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
)

// Fork from here, natively, with the real CLIs (docs/ARCHITECTURE.md
// §Checkpoints, native forks): a fork from the second of two turns is
// `claude --resume SRC --fork-session --resume-session-at <the first
// turn's last answer>`, or Codex's `thread/fork {lastTurnId: <the first
// turn>}`; its first message goes alone, and the model sees the first
// turn as the conversation's own messages — not the second, not a
// handover — while the source's session is left as it was.
func TestRealClaudeForkNatively(t *testing.T) { forkNatively(t, claudeCase) }
func TestRealCodexForkNatively(t *testing.T)  { forkNatively(t, codexCase) }

func forkNatively(t *testing.T, c agentCase) {
	e := newEnv(t, c.agent, c.cfg(t))
	e.commitKeep()
	const secondMsg = "[scenario:text] the second question"

	first := e.runTurn(toolMsg, e.approveWith("allow_once", new(int)))
	second := e.runTurn(secondMsg, e.approveWith("allow_once", new(int)))
	for _, id := range []string{first.RunID, second.RunID} {
		if j := e.journal(id); j.done.Status != run.StatusCompleted {
			t.Fatalf("run %s done %+v", id, j.done)
		}
	}
	src := e.session
	src.NativeSessionID = e.nativeSession()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e.forkAt(ctx, src, second.RunID)
	recall := e.runTurn(recallMsg, e.approveWith("allow_once", new(int)))
	j := e.journal(recall.RunID)
	if j.done.Status != run.StatusCompleted {
		t.Fatalf("the fork's run done %+v; events %v", j.done, j.types())
	}
	forkNative := e.nativeSession()
	if forkNative == "" || forkNative == src.NativeSessionID {
		t.Fatalf("the fork's own session in the agent %q (source %q): want one of its own", forkNative, src.NativeSessionID)
	}
	var asked *fakemodel.Request
	for _, r := range e.srv.ModelRequests() {
		if r.Scenario == "recall" {
			asked = &r
		}
	}
	if asked == nil {
		t.Fatal("the fork's message never reached the model")
	}
	all := userTexts(*asked)
	if !conversationHas([]fakemodel.Request{*asked}, "recall", fakemodel.RoleUser, toolMsg) ||
		!conversationHas([]fakemodel.Request{*asked}, "recall", fakemodel.RoleAssistant, "All done") ||
		strings.Contains(all, secondMsg) || strings.Contains(all, "This conversation continues") {
		t.Fatalf("the model saw, in the fork:\n%s", all)
	}
	if got := strings.TrimSpace(j.text()); got != recallWant {
		t.Fatalf("the fork's answer %q, want %q", got, recallWant)
	}
	// The source goes on where it was: its next message sees both turns.
	e.session = src
	e.runTurn("[scenario:recall] and in the source?", e.approveWith("allow_once", new(int)))
	if got := e.nativeSession(); got != src.NativeSessionID {
		t.Fatalf("the source's session in the agent %q → %q", src.NativeSessionID, got)
	}
	last := e.srv.ModelRequests()
	if r := last[len(last)-1]; !conversationHas([]fakemodel.Request{r}, "recall", fakemodel.RoleUser, secondMsg) {
		t.Fatalf("the source lost its second turn: %+v", r.Conversation.Messages)
	}
}

// A fork with a real ACP agent offering session/fork (claude-agent-acp
// 0.23.1 advertises sessionCapabilities.fork): the source's second turn
// never reached the agent (its command was broken then), so the
// conversation before that turn is its whole session and session/fork is
// asked for. claude-agent-acp 0.23.1 answers it "Resource not found" (its
// Agent SDK's Claude closes before answering; likely because the fork's
// folder, a new worktree, is not the source's), so the conversation is
// handed over: either way the fork's model sees the first turn, never the
// second, and the run completes (the way taken is logged).
func TestRealACPClaudeAgentACPFork(t *testing.T) {
	c := acpCaseByID(t, "claude-agent-acp")
	e := addAgent(t, c)
	e.commitKeep()
	const secondMsg = "[scenario:text] the second question"

	if j := e.journal(e.runTurn(toolMsg, e.approveWith("allow_once", new(int))).RunID); j.done.Status != run.StatusCompleted {
		t.Fatalf("the first run done %+v", j.done)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	key := agents.SettingKey(c.id)
	good, _, err := e.st.Journal.Setting(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	var broken map[string]any
	if err := json.Unmarshal(good, &broken); err != nil {
		t.Fatal(err)
	}
	broken["command"] = []string{"/nonexistent/agent"}
	raw, _ := json.Marshal(broken)
	if err := e.st.Journal.PutSetting(ctx, key, raw); err != nil {
		t.Fatal(err)
	}
	second := e.runTurn(secondMsg)
	if j := e.journal(second.RunID); j.done.Status != run.StatusFailed {
		t.Fatalf("the second run (no agent) done %+v", j.done)
	}
	if err := e.st.Journal.PutSetting(ctx, key, good); err != nil {
		t.Fatal(err)
	}
	src := e.session
	src.NativeSessionID = e.nativeSession()
	e.forkAt(ctx, src, second.RunID)
	j := e.journal(e.runTurn(recallMsg, e.approveWith("allow_once", new(int))).RunID)
	if j.done.Status != run.StatusCompleted {
		t.Fatalf("the fork's run done %+v; events %v", j.done, j.types())
	}
	if got := e.nativeSession(); got == "" || got == src.NativeSessionID {
		t.Fatalf("the fork's own session in the agent %q (source %q)", got, src.NativeSessionID)
	}
	reqs := e.srv.ModelRequests()
	asked := reqs[len(reqs)-1]
	all := userTexts(asked)
	if asked.Scenario != "recall" || !conversationHas([]fakemodel.Request{asked}, "recall", fakemodel.RoleUser, toolMsg) ||
		strings.Contains(all, secondMsg) {
		t.Fatalf("the model saw, in the fork (scenario %q):\n%s", asked.Scenario, all)
	}
	way := "natively (session/fork)"
	if strings.Contains(all, "This conversation continues") {
		way = "by the handover (the agent refused session/fork)"
	}
	t.Logf("the fork got the conversation %s", way)
}

// commitKeep makes the env's folder a git repository with keep.txt
// committed: the fork gets a worktree of it.
func (e *env) commitKeep() {
	e.t.Helper()
	gitcmdtest.Git(e.t, e.workspace, "init", "-q")
	writeFile(e.t, e.workspace, "keep.txt", "one\n", 0o644)
	gitcmdtest.Git(e.t, e.workspace, "add", ".")
	gitcmdtest.Git(e.t, e.workspace, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
}

// forkAt forks src from the turn runID answered (the conversation before
// it goes to the fork) and makes the fork the env's session.
func (e *env) forkAt(ctx context.Context, src run.Session, runID string) {
	e.t.Helper()
	recs, err := e.st.Service.Checkpoints(ctx, src.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	turn := ""
	for _, r := range recs {
		if r.RunID == runID {
			turn = r.TurnID
		}
	}
	fork, err := e.st.Service.Fork(ctx, service.ForkRequest{SessionID: src.ID, TurnID: turn})
	if err != nil {
		e.t.Fatalf("fork from the turn of %s (%q): %v", runID, turn, err)
	}
	e.session = fork
}

// userTexts is every message the model was given as the user's in req.
func userTexts(req fakemodel.Request) string {
	var users []string
	for _, m := range req.Conversation.Messages {
		if m.Role == fakemodel.RoleUser {
			users = append(users, m.Text)
		}
	}
	return strings.Join(users, "\n---\n")
}
