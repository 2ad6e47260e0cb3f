//go:build unix

package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/execlaunch"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/syncbuf"
)

// fakeAgentBin is the scripted agent, built once in TestMain.
var fakeAgentBin string

func TestMain(m *testing.M) {
	code := func() int {
		dir, err := os.MkdirTemp("", "acp-test-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		fakeAgentBin = filepath.Join(dir, "fakeagent")
		// The standalone main, not the whole app: main.go pulls in the
		// desktop shell and is edited by others.
		out, err := exec.Command("go", "build", "-o", fakeAgentBin, "github.com/hermesdesk/hermesdesk/testkit/fakeagent/cmd/fakeagent").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "building the fake agent: %v\n%s", err, out)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// syncBuf collects the agent's stderr and our log lines.
type syncBuf = syncbuf.Buffer

// recorder is an Emitter that keeps events and lets a test wait for one.
type recorder struct {
	mu     sync.Mutex
	events []event
	notify chan struct{}
}

func newRecorder() *recorder { return &recorder{notify: make(chan struct{}, 1)} }

func (r *recorder) Emit(t run.EventType, p any) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.events = append(r.events, event{t, b})
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
	return nil
}

func (r *recorder) all() []event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]event(nil), r.events...)
}

// waitFor blocks until an event of type t has been emitted and returns its
// payload decoded into a T.
func waitFor[T any](t *testing.T, r *recorder, typ run.EventType) T {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		for _, e := range r.all() {
			if e.Type == typ {
				var v T
				if err := json.Unmarshal(e.Payload, &v); err != nil {
					t.Fatal(err)
				}
				return v
			}
		}
		select {
		case <-r.notify:
		case <-deadline:
			t.Fatalf("no %s event; got %v", typ, types(r.all()))
		}
	}
}

func (r *recorder) text(typ run.EventType) string {
	var b strings.Builder
	for _, e := range r.all() {
		if e.Type == typ {
			var d run.TextDelta
			_ = json.Unmarshal(e.Payload, &d)
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

func (r *recorder) count(typ run.EventType) int {
	n := 0
	for _, e := range r.all() {
		if e.Type == typ {
			n++
		}
	}
	return n
}

func types(es []event) []run.EventType {
	out := make([]run.EventType, len(es))
	for i, e := range es {
		out[i] = e.Type
	}
	return out
}

// harness starts fake agents for one test.
type harness struct {
	t         *testing.T
	workspace string
	state     string
	log       *syncBuf
	env       []string // added to the agent's environment
}

func newHarness(t *testing.T) *harness {
	return &harness{t: t, workspace: t.TempDir(), state: t.TempDir(), log: &syncBuf{}}
}

func (h *harness) adapter() *Adapter { return fakeAgent(fakeAgentBin) }

// fakeAgent is the ACP adapter for the test kit's fake agent at bin,
// configured as the catalogue configures the demo agent (backend/agents).
func fakeAgent(bin string) *Adapter {
	return New("demo", "Demo agent (no AI)", []string{bin, "demo-agent"},
		WithClarify(), WithModels())
}

func (h *harness) start(nativeID string) *conn {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := h.adapter().Start(ctx, adapter.StartRequest{
		SessionID: "s1", NativeSessionID: nativeID, Workspace: h.workspace,
		Config: adapter.Config{
			Command: []string{fakeAgentBin, "demo-agent"},
			Env:     append([]string{"HERMESDESK_FAKEAGENT_STATE=" + h.state}, h.env...),
		},
	}, adapter.Host{Launcher: execlaunch.Launcher{Stderr: h.log}, Log: h.log})
	if err != nil {
		h.t.Fatalf("Start: %v\nlog:\n%s", err, h.log.String())
	}
	cn := c.(*conn)
	pid := cn.Pid()
	h.t.Cleanup(func() {
		_ = cn.Close()
		// Belt and braces: the whole group, whatever Close managed.
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	})
	return cn
}

// turn runs one turn with a deadline so a hung agent fails the test
// instead of the suite.
func (h *harness) turn(c *conn, msg string, rec *recorder) adapter.TurnResult {
	h.t.Helper()
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{RunID: "r1", Message: msg}, rec) }()
	select {
	case r := <-done:
		return r
	case <-time.After(60 * time.Second):
		h.t.Fatalf("turn %q did not end; events %v\nlog:\n%s", msg, types(rec.all()), h.log.String())
		return adapter.TurnResult{}
	}
}
