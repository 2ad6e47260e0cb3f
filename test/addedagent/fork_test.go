package addedagent

import (
	"context"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
)

// Fork from here with an ACP agent (docs/ARCHITECTURE.md §Checkpoints,
// native forks). The source's second turn never reached the agent (its
// command was broken then), so the conversation before that turn is the
// agent's whole session: an agent offering session/fork forks it, and the
// fork's first message goes alone; one that does not gets a new session
// with the conversation handed over ahead of the message.
func TestForkAnACPSessionNativelyWhereTheAgentOffersIt(t *testing.T) {
	for _, offers := range []bool{true, false} {
		name := map[bool]string{true: "session/fork offered", false: "not offered: handed over"}[offers]
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "base"}} {
				git := exec.Command("git", args...)
				git.Dir = e.ws
				if out, err := git.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			def := e.fakeACP("forky", "Forky")
			if offers {
				def["env"].(map[string]string)[fakeagent.ForkEnv] = "1"
			}
			if code, body := e.call("POST", "/api/agents", def, nil); code != http.StatusCreated {
				t.Fatalf("add agent: %d %s", code, body)
			}
			var p run.Project
			e.call("POST", "/api/projects", map[string]string{"workspace": e.ws}, &p)
			var src run.Session
			if code, body := e.call("POST", "/api/sessions", map[string]string{"project_id": p.ID, "agent": "forky"}, &src); code != http.StatusCreated {
				t.Fatalf("create session: %d %s", code, body)
			}
			const first = "/scenario recall\nfirst question"
			e.send(src.ID, first)
			// The second turn: the agent cannot start, so it never sees it.
			e.patchCommand("forky", "/nonexistent/agent")
			second := e.startRun(src.ID, "second question")
			if st := e.waitEnd(second); st.Status != run.StatusFailed {
				t.Fatalf("the second run ended %s, want failed", st.Status)
			}
			e.patchCommand("forky", testBin)
			e.call("GET", "/api/sessions/"+src.ID, nil, &src)

			var recs struct{ Checkpoints []run.Checkpoint }
			e.call("GET", "/api/sessions/"+src.ID+"/checkpoints", nil, &recs)
			turn := ""
			for _, r := range recs.Checkpoints {
				if r.RunID == second {
					turn = r.TurnID
				}
			}
			if turn == "" {
				t.Fatalf("no checkpoint of the second run in %+v", recs)
			}
			var fork run.Session
			if code, body := e.call("POST", "/api/sessions/"+src.ID+"/fork", map[string]string{"turn": turn}, &fork); code != http.StatusCreated && code != http.StatusOK {
				t.Fatalf("fork: %d %s", code, body)
			}
			e.send(fork.ID, "third")
			e.call("GET", "/api/sessions/"+fork.ID, nil, &fork)
			if fork.NativeSessionID == "" || fork.NativeSessionID == src.NativeSessionID {
				t.Fatalf("the fork's native session %q (source %q): want one of its own", fork.NativeSessionID, src.NativeSessionID)
			}
			prompts := e.agentPrompts(fork.NativeSessionID)
			if offers {
				if len(prompts) != 2 || prompts[0] != first || prompts[1] != "third" {
					t.Fatalf("the forked session holds %q: want the first turn, then the message alone", prompts)
				}
			} else if len(prompts) != 1 || !strings.Contains(prompts[0], "User: "+first) || !strings.HasSuffix(prompts[0], "third") ||
				strings.Contains(prompts[0], "second question") {
				t.Fatalf("the agent was given %q: want the conversation before the turn, then the message", prompts)
			}
			// The source's own session is untouched.
			if got := e.agentPrompts(src.NativeSessionID); len(got) != 1 || got[0] != first {
				t.Fatalf("the source's session holds %q", got)
			}
		})
	}
}

func (e *env) patchCommand(agent, command string) {
	e.t.Helper()
	if code, body := e.call("PATCH", "/api/agents/"+agent, map[string]string{"command": command}, nil); code != http.StatusOK {
		e.t.Fatalf("patch agent: %d %s", code, body)
	}
}

// startRun starts msg in session id and returns its run id.
func (e *env) startRun(id, msg string) string {
	e.t.Helper()
	var started run.StartResult
	if code, body := e.call("POST", "/api/runs", map[string]string{"session_id": id, "message": msg, "client_request_id": "req-" + msg}, &started); code != http.StatusAccepted {
		e.t.Fatalf("start a run: %d %s", code, body)
	}
	return started.RunID
}

// waitEnd waits on the journal for run id's end.
func (e *env) waitEnd(id string) run.RunState {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := e.st.Service.Follow(ctx, id, 0, func(run.Event, bool) error { return nil }); err != nil {
		e.t.Fatalf("follow %s: %v", id, err)
	}
	r, err := e.st.Journal.GetRun(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return run.RunState{RunID: id, Status: r.Status}
}
