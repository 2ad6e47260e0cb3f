// Package agents runs each real agent CLI (installed into .tools/ by
// scripts/install-agents.sh) through the whole run engine — service,
// supervisor, a detached shim per run from the real hermesdesk binary, the
// adapter, the journal — against the scripted fake model server, and
// checks what the journal holds. The adapter packages' own real tests drive
// the adapters directly; these prove the config, approvals, cancel and
// resume also work through the shim.
package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/agents/agentdef"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// The hermesdesk binary the shims run from, built once, on first use: a
// run with every CLI missing (or HERMESDESK_AGENT_TESTS=skip) builds
// nothing.
var (
	binOnce sync.Once
	binDir  string
	testBin string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if err := writeCompat(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func hermesdesk(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "hd-agents-bin-")
		if binErr == nil {
			testBin, binErr = buildBinary(binDir)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return testBin
}

// buildBinary builds the app binary from the module root. Without -race:
// the shims are separate processes, and a race build of them only slows
// the agents' turns down.
func buildBinary(dir string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("find module root: %w", err)
	}
	bin := filepath.Join(dir, "hermesdesk")
	cmd := exec.Command("go", "build", "-tags", "sqlite_fts5,webkit2_41", "-o", bin, ".")
	cmd.Dir = strings.TrimSpace(string(out))
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build hermesdesk: %v\n%s", err, msg)
	}
	return bin, nil
}

// env is one agent's data dir, open stack, fake model server, project and
// session.
type env struct {
	t         *testing.T
	agent     string
	root      string // holds data, work, home, tmp: short, for unix sockets
	dataDir   string
	workspace string
	home      string
	srv       *fakemodel.Server
	st        *stack.Stack
	session   run.Session
}

// newEnv opens a stack on a fresh data dir and stores agent's settings,
// made by cfg from the agent's private home and the fake server's URL.
// envOption adjusts the stack a test env opens.
type envOption func(*stack.Options)

// withWarmAgents keeps each run's agent for the session's next run, as
// the app does. Without it every run starts its agent and resumes.
func withWarmAgents(o *stack.Options) { o.WarmIdle = control.DefaultWarmIdle }

func newEnv(t *testing.T, agent string, cfg func(home, url string) (adapter.Config, error), opts ...envOption) *env {
	t.Helper()
	root, err := os.MkdirTemp("", "hda-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	e := &env{t: t, agent: agent, root: root, dataDir: filepath.Join(root, "data"),
		workspace: filepath.Join(root, "work"), home: filepath.Join(root, "home")}
	for _, d := range []string{e.workspace, e.home, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HERMESDESK_HOME", e.dataDir)
	e.srv = fakemodel.Start(t)
	// Cleanups run last-in first-out: the shims and agents die, then the
	// stack closes, then the dirs go.
	so := stack.Options{DataDir: e.dataDir, Executable: hermesdesk(t), WarmIdle: -1}
	for _, o := range opts {
		o(&so)
	}
	e.st, err = stack.Open(context.Background(), so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.st.Close(); err != nil {
			t.Errorf("close stack: %v", err)
		}
	})
	t.Cleanup(func() {
		if t.Failed() {
			e.dumpLogs()
		}
		runprocs.KillAll(e.dataDir)
		// The sockets live outside the data dir (short paths).
		os.RemoveAll(paths.RuntimeDir(e.dataDir))
	})

	c, err := cfg(e.home, e.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c.Env = append(c.Env, "TMPDIR="+filepath.Join(root, "tmp"))
	raw, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc := e.st.Service
	if c.Kind != "" {
		// An agent Hermes Desk does not know: added as a person adds one
		// (POST /api/agents), under its own id and name; the recipe's
		// other settings (home, options) are then stored beside it.
		if _, err := svc.AddAgent(ctx, definitionOf(agent, c)); err != nil {
			t.Fatalf("add agent %s: %v", agent, err)
		}
	}
	if err := e.st.Journal.PutSetting(ctx, agents.SettingKey(agent), raw); err != nil {
		t.Fatal(err)
	}
	p, err := svc.CreateProject(ctx, service.CreateProjectRequest{Name: "agents", Workspace: e.workspace})
	if err != nil {
		t.Fatal(err)
	}
	e.session, err = svc.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: agent, Title: agent})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// dumpLogs prints each run's shim log (its own and the agent's stderr).
func (e *env) dumpLogs() {
	logs, _ := filepath.Glob(filepath.Join(e.dataDir, "runs", "*", control.LogFile))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		if len(b) > 8000 {
			b = b[len(b)-8000:]
		}
		e.t.Logf("--- %s ---\n%s", l, b)
	}
	// The agent's private home: where its sessions went (or did not).
	var files []string
	_ = filepath.WalkDir(e.home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && len(files) < 200 {
			rel, _ := filepath.Rel(e.home, p)
			files = append(files, rel)
		}
		return nil
	})
	e.t.Logf("--- agent home ---\n%s", strings.Join(files, "\n"))
}

// turnTimeout bounds one run: Hermes takes 10–20 s a turn here.
const turnTimeout = 3 * time.Minute

// onEvent is called for each event of a followed run, in seq order.
type onEvent func(ev run.Event)

// runTurn starts a run with msg in the env's session and follows it
// through the service to its terminal event, calling each hook per event.
func (e *env) runTurn(msg string, hooks ...onEvent) run.StartResult {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	res, err := e.st.Service.StartRun(ctx, run.StartRequest{SessionID: e.session.ID, Message: msg})
	if err != nil {
		e.t.Fatalf("start %q: %v", msg, err)
	}
	err = e.st.Service.Follow(ctx, res.RunID, 0, func(ev run.Event, _ bool) error {
		for _, h := range hooks {
			h(ev)
		}
		return nil
	})
	if err != nil {
		e.t.Fatalf("follow %s: %v", res.RunID, err)
	}
	return res
}

// approveWith answers every approval.requested of the run through the
// supervisor's Approve control with the option of the given kind
// (allow_once, reject_once), checking the control was accepted.
func (e *env) approveWith(kind string, asked *int) onEvent {
	return func(ev run.Event) {
		if ev.Type != run.EventApprovalRequest {
			return
		}
		*asked++
		var a run.ApprovalRequested
		decode(e.t, ev, &a)
		choice := ""
		for _, o := range a.Options {
			if o.Kind == kind {
				choice = o.ID
				break
			}
		}
		if choice == "" {
			e.t.Errorf("approval %s offers no %s option: %+v", a.ApprovalID, kind, a.Options)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		r, err := e.st.Supervisor.Approve(ctx, ev.RunID, a.ApprovalID, choice)
		if err != nil || r.Status != run.ControlAccepted {
			e.t.Errorf("approve %s %s: %+v %v", a.ApprovalID, choice, r, err)
		}
	}
}

// journal is a run's events as the journal holds them, checked for the
// envelope's invariants: seqs gapless from 1, ids, one terminal `done` last.
type journal struct {
	t      *testing.T
	events []run.Event
	done   run.Done
}

func (e *env) journal(runID string) *journal {
	e.t.Helper()
	var evs []run.Event
	for after := int64(0); ; after = evs[len(evs)-1].Seq {
		page, err := e.st.Journal.Events(context.Background(), runID, after, 0)
		if err != nil {
			e.t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		evs = append(evs, page...)
	}
	j := &journal{t: e.t, events: evs}
	for i, ev := range evs {
		if ev.Seq != int64(i+1) || ev.EventID != fmt.Sprintf("%s:%d", runID, ev.Seq) || ev.SessionID != e.session.ID {
			e.t.Fatalf("event %d: seq %d id %q session %q (want gapless seqs from 1)", i, ev.Seq, ev.EventID, ev.SessionID)
		}
		if last := i == len(evs)-1; ev.Terminal != last || (ev.Type == run.EventDone) != last {
			e.t.Fatalf("event %d of %d is %s terminal=%v: one done, last", ev.Seq, len(evs), ev.Type, ev.Terminal)
		}
	}
	if len(evs) == 0 {
		e.t.Fatalf("run %s has no events", runID)
	}
	decode(e.t, evs[len(evs)-1], &j.done)
	counts := map[run.EventType]int{}
	for _, ev := range evs {
		counts[ev.Type]++
	}
	e.t.Logf("run %s: %d events %v, done %+v", runID, len(evs), counts, j.done)
	return j
}

// ofType returns the events of one type in seq order.
func (j *journal) ofType(t run.EventType) []run.Event {
	var out []run.Event
	for _, ev := range j.events {
		if ev.Type == t {
			out = append(out, ev)
		}
	}
	return out
}

// textAfter concatenates the token.delta texts with seq > after.
func (j *journal) textAfter(after int64) string {
	var b strings.Builder
	for _, ev := range j.ofType(run.EventTokenDelta) {
		if ev.Seq > after {
			var d run.TextDelta
			decode(j.t, ev, &d)
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

func (j *journal) text() string { return j.textAfter(0) }

// textBefore is the token.delta text with seq < before.
func (j *journal) textBefore(before int64) string {
	all, rest := j.text(), j.textAfter(before-1)
	return strings.TrimSuffix(all, rest)
}

func (j *journal) types() []run.EventType {
	out := make([]run.EventType, len(j.events))
	for i, ev := range j.events {
		out[i] = ev.Type
	}
	return out
}

func decode(t *testing.T, ev run.Event, v any) {
	t.Helper()
	if err := json.Unmarshal(ev.Payload, v); err != nil {
		t.Fatalf("%s payload %s: %v", ev.Type, ev.Payload, err)
	}
}

// nativeSession re-reads the session's stored native session id.
// bootstrap is what the shim that played runID published about itself.
func (e *env) bootstrap(runID string) control.Bootstrap {
	e.t.Helper()
	b, err := control.ReadBootstrap(e.dataDir, runID)
	if err != nil {
		e.t.Fatalf("bootstrap of %s: %v", runID, err)
	}
	return b
}

func (e *env) nativeSession() string {
	e.t.Helper()
	s, err := e.st.Journal.GetSession(context.Background(), e.session.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return s.NativeSessionID
}

// agentPid reads the agent's pid (= its process group) from the run's
// bootstrap file, waiting briefly for the shim to record it.
func (e *env) agentPid(runID string) int {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := control.ReadBootstrap(e.dataDir, runID); err == nil && b.AgentPid > 0 {
			return b.AgentPid
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0
}

// definitionOf is the added-agent definition of an agent's settings.
func definitionOf(id string, c adapter.Config) agentdef.Definition {
	d := agentdef.Definition{ID: id, Name: c.Name, Kind: c.Kind, BaseURL: c.BaseURL}
	if len(c.Command) > 0 {
		d.Command, d.Args = c.Command[0], c.Command[1:]
	}
	for _, kv := range c.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			if d.Env == nil {
				d.Env = map[string]string{}
			}
			d.Env[k] = v
		}
	}
	return d
}

// waitFor waits until ok holds (checked every 50 ms), failing the test
// after limit: for what an agent leaves on disk, which sends no event.
func (e *env) waitFor(what string, limit time.Duration, ok func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
