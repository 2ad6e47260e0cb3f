package supervisor_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hermesdesk/hermesdesk/testkit/shimbuild"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/testkit/runprocs"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/mock"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
)

// testBin is the hermesdesk binary the shims run from (built in TestMain).
var testBin string

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(helperMain())
	}
	dir, err := os.MkdirTemp("", "hd-sup-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testBin, err = shimbuild.Build(dir, raceEnabled) // shimhost can profile shims: SHIMHOST_CPUPROFILE=<dir>
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is one test's data dir, journal, project, session and supervisor.
type env struct {
	t       testing.TB
	dataDir string
	dbPath  string
	store   *journal.Store
	sup     *supervisor.Supervisor
	cfg     supervisor.Config
	session run.Session
}

type envOpt func(*supervisor.Config)

func newEnv(t testing.TB, opts ...envOpt) *env {
	t.Helper()
	dataDir := t.TempDir()
	t.Setenv("HERMESDESK_HOME", dataDir)
	// The demo agent's remembered sessions stay inside the test too.
	t.Setenv(fakeagent.StateEnv, filepath.Join(dataDir, "agent-state"))
	e := &env{t: t, dataDir: dataDir, dbPath: filepath.Join(dataDir, "hermesdesk.db")}
	// Cleanups run last-in first-out: processes die before the dir goes.
	t.Cleanup(e.killAll)
	var err error
	e.store, err = journal.Open(e.dbPath, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.store.Close() })
	ctx := context.Background()
	ws := filepath.Join(dataDir, "workspace")
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	p, err := e.store.CreateProject(ctx, "test", ws)
	if err != nil {
		t.Fatal(err)
	}
	e.session, err = e.store.CreateSession(ctx, run.Session{ProjectID: p.ID, Agent: "demo", Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	e.cfg = supervisor.Config{
		DataDir: dataDir, DBPath: e.dbPath, Store: e.store, Executable: testBin,
		CancelGrace: time.Second,
	}
	for _, o := range opts {
		o(&e.cfg)
	}
	e.open()
	return e
}

// open starts a supervisor (again) and recovers.
func (e *env) open() {
	e.t.Helper()
	sup, err := supervisor.New(e.cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := sup.Recover(context.Background()); err != nil {
		e.t.Fatal(err)
	}
	e.sup = sup
	e.t.Cleanup(func() { sup.Close() })
}

func (e *env) newSession() run.Session {
	e.t.Helper()
	s, err := e.store.CreateSession(context.Background(), run.Session{ProjectID: e.session.ProjectID, Agent: "demo", Title: "t2"})
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func (e *env) start(sessionID, msg string) run.StartResult {
	e.t.Helper()
	res, err := e.sup.Start(context.Background(), run.StartRequest{
		SessionID: sessionID, Message: msg, ClientRequestID: fmt.Sprintf("c-%d", time.Now().UnixNano()),
	})
	if err != nil {
		e.t.Fatalf("start %q: %v", msg, err)
	}
	return res
}

// killAll kills every shim and agent process group recorded in the data
// dir's bootstrap files, and fails the test if a shim logged a data race.
func (e *env) killAll() {
	defer os.RemoveAll(paths.RuntimeDir(e.dataDir))
	logs, _ := filepath.Glob(filepath.Join(e.dataDir, "runs", "*", control.LogFile))
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		for _, race := range dataRaces(string(data)) {
			// The log also holds the demo agent's stderr; its races are
			// the demo agent's (backend/demoagent), not the shim's.
			if strings.Contains(race, "backend/demoagent") || strings.Contains(race, "testkit/fakeagent") {
				e.t.Logf("the demo agent (backend/demoagent) has a data race:\n%s", firstLines(race, 12))
				continue
			}
			e.t.Errorf("a shim logged a data race (%s):\n%s", l, race)
		}
	}
	runprocs.KillAll(e.dataDir)
}

// waitFor polls cond until it holds; the deadline is generous and only
// bounds a broken run, it asserts no speed.
func (e *env) waitFor(what string, d time.Duration, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (e *env) getRun(id string) run.Run {
	e.t.Helper()
	r, err := e.store.GetRun(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func (e *env) waitTerminal(id string) run.Run {
	e.t.Helper()
	return e.waitTerminalFor(id, 60*time.Second)
}

func (e *env) waitTerminalFor(id string, d time.Duration) run.Run {
	e.t.Helper()
	var r run.Run
	e.waitFor("run "+id+" to end", d, func() bool {
		r = e.getRun(id)
		return r.Terminal
	})
	return r
}

func (e *env) waitStatus(id string, st run.Status) {
	e.t.Helper()
	e.waitFor(fmt.Sprintf("run %s to be %s", id, st), 30*time.Second, func() bool { return e.getRun(id).Status == st })
}

func (e *env) events(id string) []run.Event {
	e.t.Helper()
	evs, err := e.store.Events(context.Background(), id, 0, 1_000_000)
	if err != nil {
		e.t.Fatal(err)
	}
	return evs
}

// watchAll follows a run from after to its terminal event.
func (e *env) watchAll(sup *supervisor.Supervisor, id string, after int64) []run.Event {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ch, err := sup.Watch(ctx, id, after)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []run.Event
	for ev := range ch {
		out = append(out, ev)
	}
	if len(out) == 0 || !out[len(out)-1].Terminal {
		e.t.Fatalf("watch %s ended without its terminal event (%d events, ctx %v)", id, len(out), ctx.Err())
	}
	return out
}

// checkSeqs asserts evs are exactly after+1, after+2, … with one terminal
// event, last.
func checkSeqs(t *testing.T, evs []run.Event, after int64) {
	t.Helper()
	for i, ev := range evs {
		if want := after + int64(i) + 1; ev.Seq != want {
			t.Fatalf("event %d has seq %d, want %d (gap or duplicate)", i, ev.Seq, want)
		}
		if ev.Terminal != (i == len(evs)-1) {
			t.Fatalf("event seq %d terminal=%v at position %d of %d", ev.Seq, ev.Terminal, i, len(evs))
		}
	}
}

func doneOf(t *testing.T, evs []run.Event) run.Done {
	t.Helper()
	var n int
	var d run.Done
	for _, ev := range evs {
		if ev.Type == run.EventDone {
			n++
			if err := json.Unmarshal(ev.Payload, &d); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d done events, want exactly 1", n)
	}
	return d
}

func countType(evs []run.Event, typ run.EventType) int {
	n := 0
	for _, ev := range evs {
		if ev.Type == typ {
			n++
		}
	}
	return n
}

func text(evs []run.Event, typ run.EventType) string {
	var b strings.Builder
	for _, ev := range evs {
		if ev.Type == typ {
			var d run.TextDelta
			json.Unmarshal(ev.Payload, &d)
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

func lastOf(evs []run.Event, typ run.EventType) run.Event {
	var last run.Event
	for _, ev := range evs {
		if ev.Type == typ {
			last = ev
		}
	}
	return last
}

func firstOf[T any](t *testing.T, evs []run.Event, typ run.EventType) T {
	t.Helper()
	var v T
	for _, ev := range evs {
		if ev.Type == typ {
			if err := json.Unmarshal(ev.Payload, &v); err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatalf("no %s event", typ)
	return v
}

func (e *env) logTail(runID string) string {
	return control.TailFile(filepath.Join(control.RunDir(e.dataDir, runID), control.LogFile), 64<<10)
}

func errorsIs(err, target error) bool { return errors.Is(err, target) }

// fakeStore is the journal's function-field fake over a real store, so a
// test replaces only the operation it wants to misbehave.
func fakeStore(s supervisor.Store) *mock.Journal {
	return &mock.Journal{SubmitFunc: s.Submit, GetRunFunc: s.GetRun, ActiveRunsFunc: s.ActiveRuns,
		GetSessionFunc: s.GetSession, GetProjectFunc: s.GetProject, EventsFunc: s.Events,
		InterruptRunAfterFunc: s.InterruptRunAfter, EndRunFunc: s.EndRun, SettingFunc: s.Setting}
}

func journalFilter(sessionID string) run.RunFilter {
	return run.RunFilter{SessionID: sessionID}
}

// dataRaces returns the race detector's reports found in a log.
func dataRaces(log string) []string {
	var out []string
	for {
		i := strings.Index(log, "WARNING: DATA RACE")
		if i < 0 {
			return out
		}
		log = log[i:]
		end := strings.Index(log, "==================")
		if end < 0 {
			end = len(log)
		}
		out = append(out, log[:end])
		log = log[end:]
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
func itoa(n int) string { return fmt.Sprint(n) }
