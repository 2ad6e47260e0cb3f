package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"
)

// terminalSupported: ACP's client-side terminals (terminal/*) are served,
// so agents that prefer them (Claude Code's ACP wrapper) show live command
// output through the editor.
const terminalSupported = true

const (
	defaultTerminalOutput = 1 << 20
	maxTerminalOutput     = 16 << 20
	maxTerminals          = 32
)

// terminals are the commands an agent runs through us, in the workspace.
type terminals struct {
	ws  *workspace
	env []string

	mu     sync.Mutex
	m      map[string]*terminal
	closed bool
	// released keeps the output of the latest released terminals: an
	// agent reports its tool call done after releasing the terminal, and
	// the card still shows what ran (outputOf).
	released    map[string]string
	releasedIDs []string
}

// maxReleased is how many released terminals' output is kept.
const maxReleased = 8

type terminal struct {
	cmd  *exec.Cmd
	done chan struct{}

	mu        sync.Mutex
	out       []byte
	limit     int
	truncated bool
	exitCode  *int
	signal    *string
}

// Write keeps the last limit bytes of output, cut at a character boundary.
func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out = append(t.out, p...)
	if over := len(t.out) - t.limit; over > 0 {
		for over < len(t.out) && !utf8.RuneStart(t.out[over]) {
			over++
		}
		t.out = append(t.out[:0], t.out[over:]...)
		t.truncated = true
	}
	return len(p), nil
}

type exitStatus struct {
	ExitCode *int    `json:"exitCode,omitempty"`
	Signal   *string `json:"signal,omitempty"`
}

func (t *terminal) status() *exitStatus {
	select {
	case <-t.done:
	default:
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return &exitStatus{ExitCode: t.exitCode, Signal: t.signal}
}

func rpcParamsErr(err error) error {
	return &RPCError{Code: codeInvalidParams, Message: "Invalid params: " + err.Error()}
}

func (ts *terminals) create(params json.RawMessage) (any, error) {
	var p struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Cwd     *string  `json:"cwd"`
		Env     []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"env"`
		OutputByteLimit *int `json:"outputByteLimit"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, rpcParamsErr(err)
	}
	if strings.TrimSpace(p.Command) == "" {
		return nil, rpcParamsErr(errors.New("command is required"))
	}
	dir := ts.ws.real
	if p.Cwd != nil && *p.Cwd != "" {
		rel, err := ts.ws.rel(*p.Cwd)
		if err != nil {
			return nil, &RPCError{Code: codeInvalidParams, Message: fmt.Sprintf("cannot run in %s: Hermes Desk only runs commands inside the workspace %s", *p.Cwd, ts.ws.dir)}
		}
		dir = filepath.Join(ts.ws.real, rel)
	}
	limit := defaultTerminalOutput
	if p.OutputByteLimit != nil && *p.OutputByteLimit > 0 {
		limit = min(*p.OutputByteLimit, maxTerminalOutput)
	}
	name, args := p.Command, p.Args
	if len(args) == 0 && strings.ContainsAny(name, " \t|&;<>$") {
		name, args = shellCommand(name) // a whole command line in "command"
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append([]string(nil), ts.env...)
	for _, e := range p.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	cmd.SysProcAttr = terminalProcAttr()
	t := &terminal{cmd: cmd, done: make(chan struct{}), limit: limit}
	cmd.Stdout, cmd.Stderr = t, t

	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return nil, &RPCError{Code: codeInternal, Message: "the session is closing"}
	}
	if len(ts.m) >= maxTerminals {
		return nil, &RPCError{Code: codeInternal, Message: fmt.Sprintf("too many terminals (%d); release some first", maxTerminals)}
	}
	if err := cmd.Start(); err != nil {
		return nil, &RPCError{Code: codeInternal, Message: fmt.Sprintf("cannot run %s: %v", p.Command, err)}
	}
	go func() {
		_ = cmd.Wait()
		t.mu.Lock()
		t.exitCode, t.signal = exitOf(cmd.ProcessState)
		t.mu.Unlock()
		close(t.done)
	}()
	id := newID("term")
	ts.m[id] = t
	return map[string]string{"terminalId": id}, nil
}

func (ts *terminals) get(params json.RawMessage) (*terminal, string, error) {
	var p struct {
		TerminalID string `json:"terminalId"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, "", rpcParamsErr(err)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, ok := ts.m[p.TerminalID]
	if !ok {
		return nil, "", &RPCError{Code: codeInvalidParams, Message: fmt.Sprintf("no terminal %q", p.TerminalID)}
	}
	return t, p.TerminalID, nil
}

func (ts *terminals) output(params json.RawMessage) (any, error) {
	t, _, err := ts.get(params)
	if err != nil {
		return nil, err
	}
	st := t.status()
	t.mu.Lock()
	defer t.mu.Unlock()
	return struct {
		Output     string      `json:"output"`
		Truncated  bool        `json:"truncated"`
		ExitStatus *exitStatus `json:"exitStatus,omitempty"`
	}{string(t.out), t.truncated, st}, nil
}

func (ts *terminals) wait(ctx context.Context, params json.RawMessage) (any, error) {
	t, _, err := ts.get(params)
	if err != nil {
		return nil, err
	}
	select {
	case <-t.done:
		return t.status(), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (ts *terminals) kill(params json.RawMessage) (any, error) {
	t, _, err := ts.get(params)
	if err != nil {
		return nil, err
	}
	killTerminal(t)
	return struct{}{}, nil
}

func (ts *terminals) release(params json.RawMessage) (any, error) {
	t, id, err := ts.get(params)
	if err != nil {
		return nil, err
	}
	killTerminal(t)
	t.mu.Lock()
	out := string(t.out)
	t.mu.Unlock()
	ts.mu.Lock()
	delete(ts.m, id)
	if ts.released == nil {
		ts.released = map[string]string{}
	}
	ts.released[id] = out
	ts.releasedIDs = append(ts.releasedIDs, id)
	if len(ts.releasedIDs) > maxReleased {
		delete(ts.released, ts.releasedIDs[0])
		ts.releasedIDs = ts.releasedIDs[1:]
	}
	ts.mu.Unlock()
	return struct{}{}, nil
}

// outputOf is a terminal's output so far (or when it was released), for
// the card of the tool call that embeds it (Mapper.Terminal).
func (ts *terminals) outputOf(id string) (string, bool) {
	ts.mu.Lock()
	t, live := ts.m[id]
	out, gone := ts.released[id]
	ts.mu.Unlock()
	if live {
		t.mu.Lock()
		defer t.mu.Unlock()
		return string(t.out), true
	}
	return out, gone
}

// closeAll kills every terminal; the session is over.
func (ts *terminals) closeAll() {
	ts.mu.Lock()
	ts.closed = true
	all := ts.m
	ts.m = map[string]*terminal{}
	ts.mu.Unlock()
	for _, t := range all {
		killTerminal(t)
	}
}

func killTerminal(t *terminal) {
	select {
	case <-t.done:
		return
	default:
	}
	killGroup(t.cmd.Process)
}

func exitOf(ps *os.ProcessState) (*int, *string) {
	if ps == nil {
		return nil, nil
	}
	if sig := signalOf(ps); sig != "" {
		return nil, &sig
	}
	code := ps.ExitCode()
	return &code, nil
}
