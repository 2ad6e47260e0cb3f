package service_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
	"github.com/hermesdesk/hermesdesk/backend/workspaces"
)

// startCapture is a runner that keeps the start request the service sent.
type startCapture struct {
	*servicetest.Mem
	got []run.StartRequest
}

func (c *startCapture) Start(_ context.Context, req run.StartRequest) (run.StartResult, error) {
	c.got = append(c.got, req)
	return run.StartResult{RunID: "run_fake", SessionID: req.SessionID}, nil
}

// Fork from here through the service, on a real journal and real git: the
// new session (same project and agent) works in a new worktree branched
// from the HEAD the checkpoint recorded, its files those before the turn
// byte for byte, the person's checkout and index unchanged; its first
// message hands the earlier conversation to the agent; a plain folder is
// refused with a sentence.
func TestForkFromATurnThroughTheService(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data := t.TempDir()
	j, err := journal.Open(filepath.Join(data, "journal.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	runner := &startCapture{Mem: servicetest.NewMem()}
	s := service.New(j, runner, runner.Mem, service.Options{Log: quiet})
	s.SetCheckpoints(j, data)
	s.SetWorkspaces(workspaces.New(j, nil, quiet))

	repo := t.TempDir()
	gitcmdtest.Git(t, repo, "init", "-q", "-b", "main")
	gitcmdtest.Write(t, filepath.Join(repo, "a.txt"), "committed\n")
	gitcmdtest.Git(t, repo, "add", "a.txt")
	gitcmdtest.Git(t, repo, "commit", "-qm", "first")
	head := strings.TrimSpace(gitcmdtest.Git(t, repo, "rev-parse", "HEAD"))
	gitcmdtest.Write(t, filepath.Join(repo, "a.txt"), "staged by the person\n")
	gitcmdtest.Git(t, repo, "add", "a.txt")
	gitcmdtest.Write(t, filepath.Join(repo, "notes/untracked.txt"), "mine, untracked\n")

	p, err := j.CreateProject(ctx, "repo", repo)
	if err != nil {
		t.Fatal(err)
	}
	src, err := j.CreateSession(ctx, run.Session{ProjectID: p.ID, Title: "Refactor", Agent: "demo", Model: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := j.Submit(ctx, run.SubmitRequest{SessionID: src.ID, Message: "What is in a.txt?"})
	if err != nil {
		t.Fatal(err)
	}
	_ = first
	second, err := j.Submit(ctx, run.SubmitRequest{SessionID: src.ID, Message: "Now rewrite everything"})
	if err != nil {
		t.Fatal(err)
	}
	// The second turn's checkpoint, then the agent's edits.
	k, err := checkpoints.Before(ctx, j, checkpoints.Target{DataDir: data, Workspace: repo, SessionID: src.ID,
		TurnID: second.Turn.ID, RunID: second.Run.ID})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	gitcmdtest.Write(t, filepath.Join(repo, "a.txt"), "rewritten by the agent\n")
	gitcmdtest.Write(t, filepath.Join(repo, "agent.txt"), "new\n")
	now, err := k.Snaps.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.After(ctx, now); err != nil {
		t.Fatal(err)
	}
	person := func() string {
		return gitcmdtest.Git(t, repo, "diff", "--cached", "--raw") + "|" + gitcmdtest.Git(t, repo, "rev-parse", "HEAD") + "|" +
			gitcmdtest.Git(t, repo, "status", "--porcelain", "--untracked-files=all")
	}
	personBefore := person()
	// The agent's own session, whose second turn was never answered: a
	// fork from that turn is the whole of it, so the agent is asked to
	// fork it natively.
	native := "native-1"
	if _, err := j.UpdateSession(ctx, src.ID, run.SessionUpdate{NativeSessionID: &native}); err != nil {
		t.Fatal(err)
	}

	ses, err := s.Fork(ctx, service.ForkRequest{SessionID: src.ID, TurnID: second.Turn.ID})
	if err != nil {
		t.Fatal(err)
	}
	if ses.ID == src.ID || ses.ProjectID != p.ID || ses.Agent != "demo" || ses.Model != "m1" || ses.WorkspaceID == "" {
		t.Fatalf("the fork: %+v", ses)
	}
	w, err := j.GetWorkspace(ctx, ses.WorkspaceID)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"a.txt": "staged by the person\n", "notes/untracked.txt": "mine, untracked\n"} {
		if b, err := os.ReadFile(filepath.Join(w.Path, path)); err != nil || string(b) != want {
			t.Errorf("the fork's %s = %q, %v; want %q", path, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(w.Path, "agent.txt")); !os.IsNotExist(err) {
		t.Errorf("the fork has the file the forked turn made: %v", err)
	}
	gitcmdtest.Git(t, repo, "merge-base", "--is-ancestor", head, w.Branch)
	// Its branch says what it is: the fork's title, not only an id.
	if !strings.HasPrefix(w.Branch, "hermesdesk/fork-of-refactor-") {
		t.Errorf("the fork's branch %q is not named after its title", w.Branch)
	}
	if got := person(); got != personBefore {
		t.Errorf("the person's checkout moved:\n%s\nwas\n%s", got, personBefore)
	}

	// Its first message carries the conversation before the turn; the
	// transcript keeps the message as written.
	if _, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "Try another way"}); err != nil {
		t.Fatal(err)
	}
	got := runner.got[len(runner.got)-1]
	if got.Message != "Try another way" || !strings.HasSuffix(got.AgentMessage, "Try another way") ||
		!strings.Contains(got.AgentMessage, "User: What is in a.txt?") ||
		strings.Contains(got.AgentMessage, "Now rewrite everything") {
		t.Errorf("the fork's first message to the agent:\n%q", got.AgentMessage)
	}
	if f := got.Fork; f == nil || *f != (run.NativeFork{From: native, Turns: 1, All: true, Next: "Now rewrite everything"}) {
		t.Errorf("the fork's first run asks for the native fork %+v", f)
	}

	// A plain folder: refused, in words, and no session made.
	plain := t.TempDir()
	gitcmdtest.Write(t, filepath.Join(plain, "f.txt"), "x\n")
	pp, _ := j.CreateProject(ctx, "plain", plain)
	ps, _ := j.CreateSession(ctx, run.Session{ProjectID: pp.ID, Agent: "demo"})
	sub, err := j.Submit(ctx, run.SubmitRequest{SessionID: ps.ID, Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	pk, err := checkpoints.Before(ctx, j, checkpoints.Target{DataDir: data, Workspace: plain, SessionID: ps.ID,
		TurnID: sub.Turn.ID, RunID: sub.Run.ID})
	if err != nil {
		t.Fatal(err)
	}
	defer pk.Close()
	_, err = s.Fork(ctx, service.ForkRequest{SessionID: ps.ID, TurnID: sub.Turn.ID})
	if service.CodeOf(err) != service.CodeConflict || !strings.Contains(err.Error(), "plain folder") {
		t.Errorf("a fork of a plain folder: %v", err)
	}
	if list, _ := j.ListSessions(ctx, pp.ID); len(list) != 1 {
		t.Errorf("a refused fork made a session: %d sessions", len(list))
	}
}

func TestHandoverIsTheConversationBeforeTheTurn(t *testing.T) {
	msgs := []run.Message{
		{Role: run.RoleUser, Content: "one", RunID: "r1"},
		{Role: run.RoleAssistant, Content: " answer one ", RunID: "r1"},
		{Role: run.RoleUser, Content: "two", RunID: "r2"},
		{Role: run.RoleAssistant, Content: "", RunID: "r2"},
		{Role: run.RoleUser, Content: "three", RunID: "r3"},
	}
	for _, c := range []struct {
		run        string
		has, hasNo []string
	}{
		{"r1", nil, []string{"one"}},
		{"r2", []string{"User: one\n", "Assistant: answer one\n"}, []string{"two", "three"}},
		{"r3", []string{"User: one", "User: two"}, []string{"three", "Assistant: \n"}},
	} {
		got := service.Handover(msgs, c.run)
		if len(got) > service.MaxHandoverBytes+1024 {
			t.Errorf("%s: %d bytes", c.run, len(got))
		}
		if len(c.has) == 0 && got != "" {
			t.Errorf("%s: %q, want nothing", c.run, got)
		}
		for _, h := range c.has {
			if !strings.Contains(got, h) {
				t.Errorf("%s: %q lacks %q", c.run, got, h)
			}
		}
		for _, h := range c.hasNo {
			if strings.Contains(got, h) {
				t.Errorf("%s: %q has %q", c.run, got, h)
			}
		}
	}
}

// A long conversation hands over its newest part, whole messages, in
// valid UTF-8, within MaxHandoverBytes.
func TestHandoverKeepsTheNewestMessagesOfALongConversation(t *testing.T) {
	msgs := []run.Message{{Role: run.RoleUser, Content: "the very first", RunID: "r1"}}
	for i := range 40 {
		msgs = append(msgs, run.Message{Role: run.RoleAssistant, Content: strings.Repeat("é", 1000) + " n" + strconv.Itoa(i), RunID: "r1"})
	}
	msgs = append(msgs, run.Message{Role: run.RoleUser, Content: "last before", RunID: "r2"}, run.Message{Role: run.RoleUser, Content: "the turn", RunID: "r3"})
	got := service.Handover(msgs, "r3")
	if len(got) > service.MaxHandoverBytes+512 || !utf8.ValidString(got) {
		t.Fatalf("%d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
	for _, want := range []string{"(earlier messages left out)\n\nAssistant: é", " n39\n\nUser: last before\n\n---"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q", want)
		}
	}
	if strings.Contains(got, "the very first") || strings.Contains(got, "the turn") {
		t.Errorf("has the oldest message or the turn itself")
	}
}
