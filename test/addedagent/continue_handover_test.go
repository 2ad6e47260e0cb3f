package addedagent

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
)

// Gemini CLI cannot reopen its own saved session from a new process, so a
// conversation imported from its chats is continued by handing it to the
// agent with the first message, as a fork does, and no session/load is
// sent (docs/ARCHITECTURE.md §History). The fake ACP agent stands in for
// gemini; its own session is on disk, so a session/load would succeed and
// put the turn there.
func TestContinueImportedGeminiHandsTheConversationOver(t *testing.T) {
	// gemini on PATH is the fake ACP agent.
	bin := t.TempDir()
	e := newEnv(t)
	writeFile(t, filepath.Join(bin, "gemini"), "#!/bin/sh\nexport "+fakeagent.StateEnv+"='"+e.state+"'\nexec '"+testBin+"' demo-agent\n")
	if err := os.Chmod(filepath.Join(bin, "gemini"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	const native = "fake-00000000000000bb"
	writeJSON(t, filepath.Join(e.state, native+".json"), map[string]any{"id": native, "cwd": e.ws,
		"turns": []map[string]string{{"prompt": "first question", "reply": "first answer"}}})
	home := filepath.Join(e.root, "gem")
	project := filepath.Join(home, ".gemini", "tmp", "work")
	writeFile(t, filepath.Join(project, ".project_root"), e.ws)
	writeFile(t, filepath.Join(project, "chats", "session-2026-11-27T08-00-bb.jsonl"),
		`{"sessionId":"`+native+`","projectHash":"h","startTime":"2026-11-27T08:00:00Z","lastUpdated":"2026-11-27T08:00:01Z","kind":"main"}
{"id":"u1","timestamp":"2026-11-27T08:00:00Z","type":"user","content":[{"text":"first question"}]}
{"id":"g1","timestamp":"2026-11-27T08:00:01Z","type":"gemini","content":"first answer","model":"m"}
`)
	t.Setenv("GEMINI_CLI_HOME", home)

	var res struct{ Imported int }
	if code, body := e.call("POST", "/api/history/import", map[string]string{"source": "gemini"}, &res); code != http.StatusOK || res.Imported != 1 {
		t.Fatalf("import: %d %s", code, body)
	}
	var sessions []run.Session
	e.call("GET", "/api/sessions", nil, &sessions)
	if len(sessions) != 1 || sessions[0].NativeSessionID != native || sessions[0].Agent != "gemini" {
		t.Fatalf("sessions %+v", sessions)
	}
	id := sessions[0].ID
	if code, body := e.call("POST", "/api/sessions/"+id+"/continue", nil, nil); code != http.StatusOK {
		t.Fatalf("continue: %d %s", code, body)
	}
	e.send(id, "go on")

	// No session/load: the agent's old session has no new turn; a new one
	// got the conversation ahead of the message.
	var old struct{ Turns []struct{ Prompt string } }
	if raw, err := os.ReadFile(filepath.Join(e.state, native+".json")); err != nil || json.Unmarshal(raw, &old) != nil || len(old.Turns) != 1 {
		t.Fatalf("the agent's old session %s (%v): want it untouched (no session/load)", raw, err)
	}
	var ses run.Session
	e.call("GET", "/api/sessions/"+id, nil, &ses)
	if ses.NativeSessionID == "" || ses.NativeSessionID == native {
		t.Fatalf("session %+v: want the agent's new session id", ses)
	}
	prompts := e.agentPrompts(ses.NativeSessionID)
	if len(prompts) != 1 || !strings.Contains(prompts[0], "User: first question") ||
		!strings.Contains(prompts[0], "Assistant: first answer") || !strings.HasSuffix(prompts[0], "go on") {
		t.Fatalf("the agent was given %q: want the conversation, then the message", prompts)
	}
	// The transcript shows what was typed; the next message goes alone.
	msgs, err := e.st.Journal.Messages(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if last := msgs[len(msgs)-2]; last.Role != run.RoleUser || last.Content != "go on" {
		t.Fatalf("transcript's new user message %+v", last)
	}
	e.send(id, "and then")
	if prompts = e.agentPrompts(ses.NativeSessionID); len(prompts) != 2 || prompts[1] != "and then" {
		t.Fatalf("the agent was given %q: want the second message alone", prompts)
	}
}

// send runs msg in session id and waits for the run to complete.
func (e *env) send(id, msg string) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bus, err := e.st.Service.Watch(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	var started run.StartResult
	if code, body := e.call("POST", "/api/runs", map[string]string{"session_id": id, "message": msg, "client_request_id": "req-" + msg}, &started); code != http.StatusAccepted {
		e.t.Fatalf("start a run: %d %s", code, body)
	}
	var last run.RunState
	for m := range bus {
		if m.Run != nil && m.Run.RunID == started.RunID {
			if last = *m.Run; last.Status.Terminal() {
				break
			}
		}
	}
	if last.Status != run.StatusCompleted {
		e.t.Fatalf("the run of %q ended %s (%s)", msg, last.Status, last.Error)
	}
}

// agentPrompts is what the fake agent was given in its session native.
func (e *env) agentPrompts(native string) []string {
	e.t.Helper()
	var got struct{ Turns []struct{ Prompt string } }
	raw, err := os.ReadFile(filepath.Join(e.state, native+".json"))
	if err != nil || json.Unmarshal(raw, &got) != nil {
		e.t.Fatalf("the agent's session %s: %s (%v)", native, raw, err)
	}
	var ps []string
	for _, t := range got.Turns {
		ps = append(ps, t.Prompt)
	}
	return ps
}
