// Package agenttest helps tests drive real agent CLIs through their
// adapters: it finds the CLIs installed by scripts/install-agents.sh,
// collects emitted events, launches children through execlaunch and records
// native transcripts.
package agenttest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/execlaunch"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// RecordEnv, when "1", makes tests write the native transcripts they see
// into their package's testdata/ (for the mapper fixtures).
const RecordEnv = "HERMESDESK_RECORD"

// AgentTestsEnv controls the real-CLI tests: unset, they run when the CLI is
// installed under .tools; "1" (set by `make test-agents`, which installs
// the CLIs first) makes a missing CLI a failure in CI (CI=true); "skip"
// skips them (for a quick unit-test pass).
const AgentTestsEnv = "HERMESDESK_AGENT_TESTS"

// ToolsDir is the tools dir scripts/install-agents.sh fills: the
// absolute $HERMESDESK_TOOLS, else the .tools dir beside this checkout's
// go.mod, found from the test's working directory (a package dir). Only
// tests look there; the app itself never looks in a checkout (see
// paths.ToolsDir).
func ToolsDir() string {
	if d := paths.ToolsDir(); d != "" {
		return d
	}
	dir, err := os.Getwd()
	for err == nil {
		if b, rerr := os.ReadFile(filepath.Join(dir, "go.mod")); rerr == nil {
			if strings.Contains(string(b), "module github.com/hermesdesk/hermesdesk\n") {
				return filepath.Join(dir, ".tools")
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

// RequireTool returns the path of a CLI installed under the project's .tools
// dir (ToolsDir), or skips (see AgentTestsEnv). Tests pass that path to the
// adapter explicitly.
func RequireTool(t testing.TB, name string) string {
	t.Helper()
	if os.Getenv(AgentTestsEnv) == "skip" {
		t.Skip(AgentTestsEnv + "=skip")
	}
	dirs := paths.ToolsBinDirs(ToolsDir())
	// Agents that need their own Python (Mistral Vibe, Kimi CLI) get a
	// venv each: .tools/venv-<agent> (scripts/install-agents.sh).
	if extra, _ := filepath.Glob(filepath.Join(ToolsDir(), "venv-*", "bin")); ToolsDir() != "" {
		dirs = append(dirs, extra...)
	}
	for _, dir := range dirs {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	msg := fmt.Sprintf("%s is not installed under .tools (run scripts/install-agents.sh)", name)
	if os.Getenv("CI") == "true" && os.Getenv(AgentTestsEnv) == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Event is one emitted event.
type Event struct {
	Type    run.EventType
	Payload any
}

// Recorder is an adapter.Emitter that keeps every event and can call back
// on each (to answer approvals, cancel mid-stream, …).
type Recorder struct {
	mu     sync.Mutex
	events []Event
	notify chan struct{}
	// OnEvent, if set, is called (outside the lock) for every event.
	OnEvent func(Event)
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{notify: make(chan struct{}, 1)} }

// Emit implements adapter.Emitter.
func (r *Recorder) Emit(t run.EventType, payload any) error {
	e := Event{Type: t, Payload: payload}
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
	if r.OnEvent != nil {
		r.OnEvent(e)
	}
	return nil
}

// Events returns a copy of the events so far.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// OfType returns the payloads of one type, in order.
func (r *Recorder) OfType(t run.EventType) []any {
	var out []any
	for _, e := range r.Events() {
		if e.Type == t {
			out = append(out, e.Payload)
		}
	}
	return out
}

// Text concatenates the token.delta texts.
func (r *Recorder) Text() string {
	var b strings.Builder
	for _, p := range r.OfType(run.EventTokenDelta) {
		b.WriteString(p.(run.TextDelta).Text)
	}
	return b.String()
}

// Types lists the event types in order.
func (r *Recorder) Types() []run.EventType {
	var out []run.EventType
	for _, e := range r.Events() {
		out = append(out, e.Type)
	}
	return out
}

// Transcript collects the native lines exchanged with an agent: lines the
// agent wrote as they are, lines sent to it tagged "_direction":"to_agent".
type Transcript struct {
	mu    sync.Mutex
	lines [][]byte
}

func (tr *Transcript) add(b []byte) {
	tr.mu.Lock()
	tr.lines = append(tr.lines, append([]byte(nil), b...))
	tr.mu.Unlock()
}

// Lines returns the recorded lines.
func (tr *Transcript) Lines() [][]byte {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([][]byte(nil), tr.lines...)
}

// Save writes the transcript to path when RecordEnv is set, replacing each
// of replace's keys (temp dirs, ports) with its value — also in the dashed
// form agents name per-project dirs by — and every clock reading (Normalize)
// so fixtures are stable and name nothing of the recording machine.
func (tr *Transcript) Save(t testing.TB, path string, replace map[string]string) {
	t.Helper()
	if os.Getenv(RecordEnv) != "1" {
		return
	}
	var pairs []string
	for k, v := range replace {
		if k == "" {
			continue
		}
		pairs = append(pairs, k, v)
		if strings.HasPrefix(k, "/") {
			pairs = append(pairs, strings.ReplaceAll(k, "/", "-"), strings.ReplaceAll(v, "/", "-"))
		}
	}
	// Longest first, so a dir's path is replaced before its parent's.
	r := strings.NewReplacer(sortPairs(pairs)...)
	var buf bytes.Buffer
	for _, l := range tr.Lines() {
		buf.WriteString(Normalize(r.Replace(string(l))) + "\n")
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Launcher launches through execlaunch and records the stdio lines into
// Transcript. It remembers every pid so Cleanup can kill leftovers.
type Launcher struct {
	Transcript Transcript
	Stderr     io.Writer
	mu         sync.Mutex
	procs      []*execlaunch.Proc
}

// NewLauncher returns a launcher whose children are killed at the test's end.
func NewLauncher(t testing.TB) *Launcher {
	lw := &logWriter{t: t}
	l := &Launcher{Stderr: lw}
	t.Cleanup(func() {
		defer func() { lw.mu.Lock(); lw.done = true; lw.mu.Unlock() }()
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, p := range l.procs {
			_ = p.Kill()
			select {
			case <-p.Exited():
			case <-time.After(5 * time.Second):
				t.Errorf("pid %d did not exit after SIGKILL", p.Pid())
			}
		}
	})
	return l
}

// Launch implements adapter.Launcher.
func (l *Launcher) Launch(ctx context.Context, spec adapter.ProcSpec) (adapter.Proc, error) {
	p, err := execlaunch.Launcher{Stderr: l.Stderr}.Launch(ctx, spec)
	if err != nil {
		return nil, err
	}
	ep := p.(*execlaunch.Proc)
	l.mu.Lock()
	l.procs = append(l.procs, ep)
	l.mu.Unlock()
	return &teeProc{Proc: ep, tr: &l.Transcript}, nil
}

type teeProc struct {
	*execlaunch.Proc
	tr *Transcript
}

func (p *teeProc) Stdin() io.WriteCloser { return &teeIn{WriteCloser: p.Proc.Stdin(), tr: p.tr} }
func (p *teeProc) Stdout() io.ReadCloser { return &teeOut{ReadCloser: p.Proc.Stdout(), tr: p.tr} }

type teeIn struct {
	io.WriteCloser
	tr *Transcript
}

func (w *teeIn) Write(b []byte) (int, error) {
	for _, l := range bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n")) {
		if len(l) > 1 && l[0] == '{' {
			w.tr.add(append([]byte(`{"_direction":"to_agent",`), l[1:]...))
		}
	}
	return w.WriteCloser.Write(b)
}

type teeOut struct {
	io.ReadCloser
	tr  *Transcript
	buf []byte
}

func (r *teeOut) Read(b []byte) (int, error) {
	n, err := r.ReadCloser.Read(b)
	r.buf = append(r.buf, b[:n]...)
	for {
		i := bytes.IndexByte(r.buf, '\n')
		if i < 0 {
			break
		}
		r.tr.add(r.buf[:i])
		r.buf = r.buf[i+1:]
	}
	return n, err
}

// logWriter sends stderr to the test log until the test ends (a late write
// to a finished test's log panics).
type logWriter struct {
	t    testing.TB
	mu   sync.Mutex
	done bool
}

func (w *logWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Logf("stderr: %s", bytes.TrimRight(b, "\n"))
	}
	return len(b), nil
}
