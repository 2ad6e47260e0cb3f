package cli

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/agents/agentdef"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
	"github.com/hermesdesk/hermesdesk/testkit/syncbuf"
)

const token = "cli-test-token-0123456789abcdef0123456789"

// syncBuf is a bytes.Buffer safe to read while a command writes.
type syncBuf = syncbuf.Buffer

type fixture struct {
	mem            *servicetest.Mem
	env            *Env
	stdout, stderr *syncBuf
	sigs           chan os.Signal
}

// newFixture runs the API over a real 127.0.0.1 listener on the in-memory
// world, and an Env whose client talks to it.
func newFixture(t *testing.T, setup ...func(*service.Service)) *fixture {
	t.Helper()
	m := servicetest.NewMem()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(m, m, m, service.Options{Log: quiet})
	for _, f := range setup {
		f(svc)
	}
	srv := httptest.NewServer(httpapi.New(svc, httpapi.Config{Token: token, Log: quiet}))
	t.Cleanup(srv.Close)
	f := &fixture{mem: m, stdout: &syncBuf{}, stderr: &syncBuf{}, sigs: make(chan os.Signal, 2)}
	dir := t.TempDir()
	f.env = &Env{
		Stdout: f.stdout, Stderr: f.stderr,
		DataDir:      func() (string, error) { return dir, nil },
		Client:       func(string) *httpapi.Client { return httpapi.NewClient(srv.URL, token) },
		Signals:      func() (<-chan os.Signal, func()) { return f.sigs, func() {} },
		Getwd:        func() (string, error) { return dir, nil },
		DetachWindow: 10 * time.Second,
	}
	return f
}

func TestNotRunning(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", dir)
	var out, errOut bytes.Buffer
	e := &Env{Stdout: &out, Stderr: &errOut, DataDir: func() (string, error) { return dir, nil }}
	for _, args := range [][]string{{"ls"}, {"tail", "run_1"}, {"cancel", "run_1"}} {
		errOut.Reset()
		if code := e.Runs(args); code != exitFail {
			t.Fatalf("runs %v: exit %d", args, code)
		}
		if strings.TrimSpace(errOut.String()) != NotRunning {
			t.Fatalf("runs %v said %q, want %q", args, errOut.String(), NotRunning)
		}
	}
	errOut.Reset()
	if code := e.Ask([]string{"hello"}); code != exitFail || strings.TrimSpace(errOut.String()) != NotRunning {
		t.Fatalf("ask: exit %d, %q", code, errOut.String())
	}
	if out.Len() != 0 {
		t.Fatalf("stdout = %q", out.String())
	}
}

func TestUsageErrors(t *testing.T) {
	f := newFixture(t)
	for _, tt := range []struct {
		name string
		call func() int
	}{
		{"runs alone", func() int { return f.env.Runs(nil) }},
		{"runs bogus", func() int { return f.env.Runs([]string{"bogus"}) }},
		{"tail without run", func() int { return f.env.Runs([]string{"tail"}) }},
		{"tail bad after", func() int { return f.env.Runs([]string{"tail", "r", "--after", "x"}) }},
		{"cancel two runs", func() int { return f.env.Runs([]string{"cancel", "a", "b"}) }},
		{"ask nothing", func() int { return f.env.Ask(nil) }},
		{"serve remote without flag", func() int { return f.env.Serve([]string{"--addr", "0.0.0.0:0"}, nil) }},
		{"serve bad addr", func() int { return f.env.Serve([]string{"--addr", "nope"}, nil) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if code := tt.call(); code != exitUsage {
				t.Fatalf("exit %d, want %d (stderr %q)", code, exitUsage, f.stderr.String())
			}
		})
	}
	if !strings.Contains(f.stderr.String(), "--allow-remote") {
		t.Fatalf("remote refusal does not name the flag: %q", f.stderr.String())
	}
}

func TestRunsList(t *testing.T) {
	f := newFixture(t)
	if code := f.env.Runs([]string{"ls"}); code != 0 || f.stdout.String() != "No runs yet.\n" {
		t.Fatalf("empty ls: %d %q", code, f.stdout.String())
	}
	f.mem.AddRun("run_a")
	f.mem.AddRun("run_b")
	f.mem.Append("run_b", run.EventDone, run.Done{Status: run.StatusFailed})
	f.stdout.Reset()
	if code := f.env.Runs([]string{"ls", "--active"}); code != 0 {
		t.Fatalf("ls --active: %d %s", code, f.stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(f.stdout.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "RUN") || !strings.HasPrefix(lines[1], "run_a") || !strings.Contains(lines[1], "running") {
		t.Fatalf("ls --active:\n%s", f.stdout.String())
	}
	f.stdout.Reset()
	f.env.Runs([]string{"ls"})
	if out := f.stdout.String(); !strings.Contains(out, "run_b") || !strings.Contains(out, "failed") {
		t.Fatalf("ls:\n%s", out)
	}
}

func TestRunsTail(t *testing.T) {
	f := newFixture(t)
	f.mem.AddRun("r1")
	f.mem.Append("r1", run.EventReasoningDelta, run.TextDelta{Text: "hmm"})
	f.mem.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "Hello "})
	f.mem.Append("r1", run.EventToolStarted, run.ToolStarted{ToolCallID: "t1", Name: "read", Title: "Read notes.md"})
	f.mem.Append("r1", run.EventToolDone, run.ToolDone{ToolCallID: "t1", Status: "failed", Error: "no such file"})
	f.mem.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "world"})
	done := make(chan int, 1)
	go func() { done <- f.env.Runs([]string{"tail", "r1"}) }()
	waitFor(t, func() bool { return strings.Contains(f.stdout.String(), "world") })
	f.mem.Append("r1", run.EventTokenDelta, run.TextDelta{Text: "!"}) // live
	f.mem.Append("r1", run.EventDone, run.Done{Status: run.StatusFailed, Error: "boom"})
	if code := <-done; code != exitFail {
		t.Fatalf("exit %d", code)
	}
	want := "… thinking\nHello \n→ Read notes.md\n  ✗ failed: no such file\nworld!\n"
	if got := f.stdout.String(); got != want {
		t.Fatalf("stdout:\n%q\nwant\n%q", got, want)
	}
	if got := f.stderr.String(); got != "Run failed: boom.\n" {
		t.Fatalf("stderr = %q", got)
	}
	// --after and --json: the remaining envelopes, one JSON line each.
	f.stdout.Reset()
	if code := f.env.Runs([]string{"tail", "--json", "r1", "--after", "5"}); code != exitFail {
		t.Fatalf("tail --json: exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(f.stdout.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"event_id":"r1:6"`) || !strings.Contains(lines[1], `"type":"done"`) {
		t.Fatalf("tail --json:\n%s", f.stdout.String())
	}
	f.stderr.Reset()
	if code := f.env.Runs([]string{"tail", "nope"}); code != exitFail || !strings.Contains(f.stderr.String(), "run not found") {
		t.Fatalf("tail unknown: %d %q", code, f.stderr.String())
	}
}

func TestRunsCancel(t *testing.T) {
	f := newFixture(t)
	f.mem.AddRun("r1")
	var got string
	f.mem.CancelFn = func(_ context.Context, id string) (run.ControlResult, error) {
		got = id
		return run.ControlResult{Accepted: true, Status: run.ControlAccepted}, nil
	}
	if code := f.env.Runs([]string{"cancel", "r1"}); code != 0 || got != "r1" || f.stdout.String() != "Cancelling r1.\n" {
		t.Fatalf("cancel: %d %q %q", code, got, f.stdout.String())
	}
	f.mem.CancelFn = nil
	f.stdout.Reset()
	if code := f.env.Runs([]string{"cancel", "r1"}); code != 0 || !strings.HasPrefix(f.stdout.String(), "r1 is not running") {
		t.Fatalf("cancel not-active: %d %q", code, f.stdout.String())
	}
	if code := f.env.Runs([]string{"cancel", "nope"}); code != exitFail || !strings.Contains(f.stderr.String(), "run not found") {
		t.Fatalf("cancel unknown: %d %q", code, f.stderr.String())
	}
}

func TestRunsResume(t *testing.T) {
	f := newFixture(t)
	f.mem.AddRun("r1")
	var got string
	f.mem.ResumeFn = func(_ context.Context, id string) (run.ControlResult, error) {
		got = id
		return run.ControlResult{Accepted: true, Status: run.ControlAccepted}, nil
	}
	if code := f.env.Runs([]string{"resume", "r1"}); code != 0 || got != "r1" || f.stdout.String() != "Resuming r1.\n" {
		t.Fatalf("resume: %d %q %q", code, got, f.stdout.String())
	}
	f.mem.ResumeFn = nil
	f.stdout.Reset()
	if code := f.env.Runs([]string{"resume", "r1"}); code != 0 || !strings.HasPrefix(f.stdout.String(), "r1 is not waiting for quota") {
		t.Fatalf("resume not-active: %d %q", code, f.stdout.String())
	}
	if code := f.env.Runs([]string{"resume", "nope"}); code != exitFail || !strings.Contains(f.stderr.String(), "run not found") {
		t.Fatalf("resume unknown: %d %q", code, f.stderr.String())
	}
}

// answer plays an agent: it waits for the run ask starts and answers it.
func (f *fixture) answer(t *testing.T, text string, status run.Status) string {
	t.Helper()
	var id string
	waitFor(t, func() bool {
		rs, _ := f.mem.ListRuns(context.Background(), run.RunFilter{})
		if len(rs) == 1 {
			id = rs[0].ID
		}
		return id != ""
	})
	f.mem.Append(id, run.EventTokenDelta, run.TextDelta{Text: text})
	if status != "" {
		f.mem.Append(id, run.EventDone, run.Done{Status: status})
	}
	return id
}

func TestAskStreamsAnswer(t *testing.T) {
	f := newFixture(t)
	done := make(chan int, 1)
	go func() { done <- f.env.Ask([]string{"--agent", "demo", "Say", "hi"}) }()
	id := f.answer(t, "Hi there", run.StatusCompleted)
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, f.stderr.String())
	}
	if f.stdout.String() != "Hi there\n" {
		t.Fatalf("stdout = %q", f.stdout.String())
	}
	if !strings.Contains(f.stderr.String(), "run "+id) {
		t.Fatalf("stderr does not name the run: %q", f.stderr.String())
	}
	// The project is the working dir's; the session is titled by the message.
	ps, _ := f.mem.ListProjects(context.Background())
	ss, _ := f.mem.ListSessions(context.Background(), "")
	wd, _ := f.env.Getwd()
	if len(ps) != 1 || ps[0].Workspace != wd || len(ss) != 1 || ss[0].Title != "Say hi" || ss[0].Agent != "demo" {
		t.Fatalf("projects %+v sessions %+v", ps, ss)
	}
	msgs, _ := f.mem.Messages(context.Background(), ss[0].ID)
	if len(msgs) == 0 || msgs[0].Content != "Say hi" {
		t.Fatalf("messages %+v", msgs)
	}
}

// An added agent is asked by its id and named by its own name.
func TestAskNamesAnAddedAgentByItsName(t *testing.T) {
	f := newFixture(t)
	svc := service.New(f.mem, f.mem, f.mem, service.Options{})
	if _, err := svc.AddAgent(context.Background(), agentdef.Definition{ID: "my-acp", Name: "My ACP Agent", Kind: agentdef.KindACP, Command: "my-acp"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() { done <- f.env.Ask([]string{"--agent", "my-acp", "hello"}) }()
	f.answer(t, "ok", run.StatusCompleted)
	if code := <-done; code != 0 || !strings.Contains(f.stderr.String(), "Asking My ACP Agent (run ") {
		t.Fatalf("exit %d: %q", code, f.stderr.String())
	}
}

func TestAskDefaultsToDemoAgentWhenNoneInstalled(t *testing.T) {
	f := newFixture(t)
	done := make(chan int, 1)
	go func() { done <- f.env.Ask([]string{"hello"}) }()
	f.answer(t, "ok", run.StatusCompleted)
	if code := <-done; code != 0 || !strings.Contains(f.stderr.String(), "using the demo agent") {
		t.Fatalf("exit %d: %q", code, f.stderr.String())
	}
}

func TestAskCtrlCDetachesThenCancels(t *testing.T) {
	for _, second := range []bool{false, true} {
		t.Run(map[bool]string{false: "detach", true: "cancel"}[second], func(t *testing.T) {
			f := newFixture(t)
			f.env.DetachWindow = time.Hour
			if !second {
				f.env.DetachWindow = time.Millisecond
			}
			cancelled := make(chan string, 1)
			f.mem.CancelFn = func(_ context.Context, id string) (run.ControlResult, error) {
				cancelled <- id
				return run.ControlResult{Accepted: true, Status: run.ControlAccepted}, nil
			}
			done := make(chan int, 1)
			go func() { done <- f.env.Ask([]string{"--agent", "demo", "work"}) }()
			id := f.answer(t, "partial", "")
			waitFor(t, func() bool { return strings.Contains(f.stdout.String(), "partial") })
			f.sigs <- os.Interrupt
			if second {
				waitFor(t, func() bool { return strings.Contains(f.stderr.String(), "Detached") })
				f.sigs <- os.Interrupt
			}
			code := <-done
			if !strings.Contains(f.stderr.String(), "runs tail "+id) {
				t.Fatalf("detach message missing: %q", f.stderr.String())
			}
			if second {
				if code != exitCancelled || <-cancelled != id {
					t.Fatalf("exit %d", code)
				}
				return
			}
			if code != 0 || len(cancelled) != 0 {
				t.Fatalf("detach: exit %d, cancelled %d", code, len(cancelled))
			}
			if r, _ := f.mem.GetRun(context.Background(), id); r.Terminal {
				t.Fatal("detaching ended the run")
			}
		})
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(2 * time.Millisecond)
	}
}
