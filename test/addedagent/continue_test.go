package addedagent

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A conversation imported from an ACP agent's own history (Qwen Code's
// chats here, the fake ACP agent standing in for the qwen the person
// added) is continued in that agent: the next message resumes the
// agent's own session by session/load, under the id the file names
// (docs/ARCHITECTURE.md §History).
func TestContinueImportedHistoryInItsACPAgent(t *testing.T) {
	e := newEnv(t)
	if code, body := e.call("POST", "/api/agents", e.fakeACP("qwen", "Qwen Code"), nil); code != http.StatusCreated {
		t.Fatalf("add agent: %d %s", code, body)
	}
	// The agent's own session, as it left it, and its chat file.
	const native = "fake-00000000000000aa"
	state := map[string]any{"id": native, "cwd": e.ws, "turns": []map[string]string{{"prompt": "first question", "reply": "first answer"}}}
	writeJSON(t, filepath.Join(e.state, native+".json"), state)
	qwenHome := filepath.Join(e.root, "qwen")
	chat := `{"uuid":"u1","parentUuid":null,"sessionId":"` + native + `","timestamp":"2026-11-27T08:00:00Z","type":"user","cwd":"` + e.ws + `","version":"0.15.10","message":{"role":"user","parts":[{"text":"first question"}]}}
{"uuid":"a1","parentUuid":"u1","sessionId":"` + native + `","timestamp":"2026-11-27T08:00:01Z","type":"assistant","cwd":"` + e.ws + `","version":"0.15.10","model":"m","message":{"role":"model","parts":[{"text":"first answer"}]}}
`
	writeFile(t, filepath.Join(qwenHome, "projects", "-work", "chats", native+".jsonl"), chat)
	t.Setenv("QWEN_HOME", qwenHome)

	var res struct{ Imported int }
	if code, body := e.call("POST", "/api/history/import", map[string]string{"source": "qwen"}, &res); code != http.StatusOK || res.Imported != 1 {
		t.Fatalf("import: %d %s", code, body)
	}
	var sessions []run.Session
	e.call("GET", "/api/sessions", nil, &sessions)
	if len(sessions) != 1 || sessions[0].NativeSessionID != native || sessions[0].Agent != "qwen" {
		t.Fatalf("sessions %+v", sessions)
	}
	id := sessions[0].ID
	if code, body := e.call("POST", "/api/sessions/"+id+"/continue", nil, nil); code != http.StatusOK {
		t.Fatalf("continue: %d %s", code, body)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bus, err := e.st.Service.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var started run.StartResult
	if code, body := e.call("POST", "/api/runs", map[string]string{"session_id": id, "message": "go on", "client_request_id": "req-continue"}, &started); code != http.StatusAccepted {
		t.Fatalf("start a run: %d %s", code, body)
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
		t.Fatalf("the continued run ended %s (%s)", last.Status, last.Error)
	}
	// The agent went on in its own session: the new turn is in it, and the
	// app's session still names it.
	var got struct {
		Turns []struct{ Prompt string }
	}
	raw, err := os.ReadFile(filepath.Join(e.state, native+".json"))
	if err != nil || json.Unmarshal(raw, &got) != nil || len(got.Turns) != 2 || got.Turns[1].Prompt != "go on" {
		t.Fatalf("the agent's session %s (%v): want the new turn in it", raw, err)
	}
	var ses run.Session
	e.call("GET", "/api/sessions/"+id, nil, &ses)
	if ses.NativeSessionID != native || ses.ImportedFrom != "" {
		t.Fatalf("session %+v", ses)
	}
}

func writeJSON(t *testing.T, p string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, string(b))
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}
