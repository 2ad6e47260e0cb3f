// Package addedagent adds an ACP agent through the HTTP API — the test
// kit's fake ACP agent under a name of its own — and runs a session with it
// through the whole run engine (service, supervisor, a detached shim, the
// ACP adapter, the journal): docs/ARCHITECTURE.md §Agents are data.
package addedagent

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
	"github.com/hermesdesk/hermesdesk/testkit/shimbuild"
)

var testBin string

const token = "test-token"

func TestMain(m *testing.M) { shimbuild.Main(m, &testBin) }

type env struct {
	t     *testing.T
	root  string
	st    *stack.Stack
	srv   *httptest.Server
	ws    string
	state string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root, err := os.MkdirTemp("", "hd-aa-") // short: sockets live under it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	e := &env{t: t, root: root, ws: filepath.Join(root, "work"), state: filepath.Join(root, "agent-state")}
	os.MkdirAll(e.ws, 0o700)
	dataDir := filepath.Join(root, "data")
	t.Setenv("HERMESDESK_HOME", dataDir)
	t.Setenv("XDG_RUNTIME_DIR", root)
	e.st, err = stack.Open(context.Background(), stack.Options{DataDir: dataDir, Executable: testBin, WarmIdle: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.st.Close() })
	t.Cleanup(func() {
		runprocs.KillAll(dataDir)
		os.RemoveAll(paths.RuntimeDir(dataDir))
	})
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	e.srv = httptest.NewServer(httpapi.New(e.st.Service, httpapi.Config{Token: token, Log: quiet}))
	t.Cleanup(e.srv.Close)
	return e
}

// call sends body as JSON and decodes the answer into out (if given).
func (e *env) call(method, path string, body any, out any) (int, string) {
	e.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, r)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			e.t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	return resp.StatusCode, string(raw)
}

func (e *env) fakeACP(id, name string) map[string]any {
	return map[string]any{"id": id, "name": name, "kind": "acp", "command": testBin, "args": []string{"demo-agent"},
		"env": map[string]string{fakeagent.StateEnv: e.state}}
}

// runTo starts a run of msg in a new session of agent and waits, on the
// watch bus, for it to end; it returns the run's last bus state.
func (e *env) runTo(agent, msg string) run.RunState {
	e.t.Helper()
	var p run.Project
	if code, body := e.call("POST", "/api/projects", map[string]string{"workspace": e.ws}, &p); code != http.StatusCreated && code != http.StatusOK {
		e.t.Fatalf("create project: %d %s", code, body)
	}
	var s run.Session
	if code, body := e.call("POST", "/api/sessions", map[string]string{"project_id": p.ID, "agent": agent}, &s); code != http.StatusCreated {
		e.t.Fatalf("create a session of %s: %d %s", agent, code, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bus, err := e.st.Service.Watch(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	var started run.StartResult
	if code, body := e.call("POST", "/api/runs", map[string]string{"session_id": s.ID, "message": msg, "client_request_id": "req-" + s.ID}, &started); code != http.StatusAccepted {
		e.t.Fatalf("start a run: %d %s", code, body)
	}
	var last run.RunState
	for m := range bus {
		if m.Run != nil && m.Run.RunID == started.RunID {
			last = *m.Run
			if last.Status.Terminal() {
				return last
			}
		}
	}
	e.t.Fatalf("run %s did not end in time (last state %+v)", started.RunID, last)
	return last
}

func TestAddedACPAgentRunsUnderItsOwnName(t *testing.T) {
	e := newEnv(t)
	var added map[string]any
	if code, body := e.call("POST", "/api/agents", e.fakeACP("my-acp", "My ACP Agent"), &added); code != http.StatusCreated {
		t.Fatalf("add agent: %d %s", code, body)
	}
	var list []map[string]any
	e.call("GET", "/api/agents?refresh=1", nil, &list)
	var found map[string]any
	for _, a := range list {
		if a["name"] == "my-acp" {
			found = a
		}
	}
	if found == nil || found["display_name"] != "My ACP Agent" || found["added"] != true || found["ok"] != true {
		t.Fatalf("GET /api/agents lists the added agent as %v; want it by its name, added and healthy", found)
	}

	st := e.runTo("my-acp", "hello")
	if st.Status != run.StatusCompleted {
		t.Fatalf("run ended %s (%s), want completed", st.Status, st.Error)
	}
	if st.AgentName != "My ACP Agent" {
		t.Fatalf("the watch bus (tray, notifications) names the agent %q, want its own name", st.AgentName)
	}

	// Renamed, it is called by the new name from then on.
	if code, body := e.call("PATCH", "/api/agents/my-acp", map[string]string{"name": "Renamed agent"}, nil); code != http.StatusOK {
		t.Fatalf("rename: %d %s", code, body)
	}
	// Pointed at a program that is not there, its error carries its name.
	if code, body := e.call("PATCH", "/api/agents/my-acp", map[string]string{"command": filepath.Join(e.root, "missing-agent")}, nil); code != http.StatusOK {
		t.Fatalf("change command: %d %s", code, body)
	}
	st = e.runTo("my-acp", "hello again")
	if st.Status != run.StatusFailed || !strings.Contains(st.Error, "Renamed agent") {
		t.Fatalf("run of a missing program ended %s with %q; want failed naming \"Renamed agent\"", st.Status, st.Error)
	}

	// Removed, it is no longer an agent a session can be opened with.
	if code, body := e.call("DELETE", "/api/agents/my-acp", nil, nil); code != http.StatusNoContent {
		t.Fatalf("remove: %d %s", code, body)
	}
	var p run.Project
	e.call("POST", "/api/projects", map[string]string{"workspace": e.ws}, &p)
	if code, _ := e.call("POST", "/api/sessions", map[string]string{"project_id": p.ID, "agent": "my-acp"}, nil); code != http.StatusBadRequest {
		t.Fatalf("a session of a removed agent: %d, want 400", code)
	}
}

func TestBadAgentIsRefusedNamingTheFieldAndNothingIsSaved(t *testing.T) {
	e := newEnv(t)
	if code, body := e.call("POST", "/api/agents", e.fakeACP("mine", "Mine"), nil); code != http.StatusCreated {
		t.Fatalf("add agent: %d %s", code, body)
	}
	with := func(id string, edit func(map[string]any)) map[string]any {
		d := e.fakeACP(id, "Bad")
		edit(d)
		return d
	}
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"id format", with("Bad Id", func(map[string]any) {}), "id:"},
		{"duplicate id", with("mine", func(map[string]any) {}), "id:"},
		{"built-in id", with("demo", func(map[string]any) {}), "id:"},
		{"unknown kind", with("bad-kind", func(d map[string]any) { d["kind"] = "grpc" }), "kind:"},
		{"empty command", with("bad-cmd", func(d map[string]any) { d["command"] = "" }), "command:"},
		{"env key", with("bad-env", func(d map[string]any) { d["env"] = map[string]string{"NOT VALID": "x"} }), "env:"},
	}
	for _, c := range cases {
		code, body := e.call("POST", "/api/agents", c.body, nil)
		if code != http.StatusBadRequest || !strings.Contains(body, c.field) {
			t.Errorf("%s: %d %s, want 400 naming %s", c.name, code, body, c.field)
		}
	}
	var settings map[string]json.RawMessage
	e.call("GET", "/api/settings", nil, &settings)
	for k, v := range settings {
		if strings.HasPrefix(k, "agents.bad") {
			t.Errorf("a refused agent left %s = %s", k, v)
		}
	}
	var mine map[string]any
	_ = json.Unmarshal(settings["agents.mine"], &mine)
	if mine["name"] != "Mine" {
		t.Errorf("the refused duplicate changed the agent already there: %s", settings["agents.mine"])
	}
	if code, body := e.call("DELETE", "/api/agents/demo", nil, nil); code != http.StatusBadRequest || !strings.Contains(body, "built in") {
		t.Errorf("delete a built-in agent: %d %s, want 400 saying it is built in", code, body)
	}
	if code, body := e.call("PATCH", "/api/agents/demo", map[string]string{"kind": "command"}, nil); code != http.StatusBadRequest || !strings.Contains(body, "kind:") {
		t.Errorf("change a built-in agent's kind: %d %s, want 400 naming kind", code, body)
	}
	if code, _ := e.call("DELETE", "/api/agents/nobody", nil, nil); code != http.StatusNotFound {
		t.Errorf("delete an unknown agent: %d, want 404", code)
	}
}

// An agent that demands a sign-in fails its run with the ways to sign in,
// in words (the fake agent's scripted Kimi-like login), never its JSON.
func TestAuthRequiredRunSaysHowToSignIn(t *testing.T) {
	e := newEnv(t)
	d := e.fakeACP("needs-login", "Needs Login")
	d["env"].(map[string]string)[fakeagent.AuthEnv] = fakeagent.AuthTerminal
	if code, body := e.call("POST", "/api/agents", d, nil); code != http.StatusCreated {
		t.Fatalf("add agent: %d %s", code, body)
	}
	st := e.runTo("needs-login", "hello")
	want := "Needs Login needs you to sign in first, in one of these ways: run `" + testBin + " demo-agent login` in a terminal"
	if st.Status != run.StatusFailed || !strings.HasPrefix(st.Error, want) || strings.ContainsAny(st.Error, "{}") {
		t.Fatalf("run ended %s with %q; want failed with %q… and no JSON", st.Status, st.Error, want)
	}
}

// "Add agent" offers the shipped registry snapshot, Hermes among it, and
// says which ids are taken.
func TestRegistryIsOfferedFromTheSnapshot(t *testing.T) {
	e := newEnv(t)
	var reg struct {
		Date   string `json:"date"`
		Agents []struct {
			ID, Command string
			InstallHint string `json:"install_hint"`
			Taken       bool
		} `json:"agents"`
	}
	if code, body := e.call("GET", "/api/agents/registry", nil, &reg); code != http.StatusOK {
		t.Fatalf("GET /api/agents/registry: %d %s", code, body)
	}
	seen := map[string]bool{}
	for _, a := range reg.Agents {
		seen[a.ID] = a.Taken
		if a.Command == "" || a.InstallHint == "" {
			t.Errorf("%s is offered without a launch command or install hint", a.ID)
		}
	}
	if reg.Date == "" || !seen["hermes"] || !seen["gemini"] {
		t.Fatalf("registry dated %q offers %v; want a date, Hermes, and gemini taken (built in)", reg.Date, seen)
	}
	if _, ok := seen["opencode"]; !ok || seen["opencode"] {
		t.Fatalf("opencode: offered %v; want offered and not taken", ok)
	}
}
