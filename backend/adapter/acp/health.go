package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/version"
)

// Health by handshake (docs/ARCHITECTURE.md §Agent health):
// an ACP agent is healthy when it answers the protocol's own `initialize`,
// and its version is the one its answer's agentInfo gives. Many agents have
// no `--version` (codex-acp), and some take seconds to start (vibe-acp
// 2.5 s), so the bound is HealthHandshakeTimeout, not a flag's.

// HealthHandshakeTimeout bounds the answer to initialize in a health check:
// it fits the slow starters seen (Node and Python agents, 1–3 s cold) with
// room for a busy machine.
const HealthHandshakeTimeout = 10 * time.Second

// maxHealthLine bounds one line read from the agent during the check.
const maxHealthLine = 4 << 20

// handshakeHealth starts the agent at path with args, asks `initialize` and
// stops it again. It never opens a session: nothing is written anywhere.
func (a *Adapter) handshakeHealth(ctx context.Context, path string, args []string, cfg adapter.Config) adapter.Health {
	h := adapter.Health{Installed: true, Path: path}
	ctx, cancel := context.WithTimeout(ctx, HealthHandshakeTimeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "hd-acp-health-")
	if err != nil {
		h.Message = fmt.Sprintf("%s could not be checked: %v", a.display, err)
		return h
	}
	defer os.RemoveAll(dir)

	c := exec.Command(path, args...)
	c.Dir = dir
	c.Env = a.childEnv(adapter.StartRequest{Config: cfg})
	c.SysProcAttr = terminalProcAttr() // its own group: a wrapper's children go with it
	// A child that outlives the agent (npx's) may hold stderr open: Wait
	// stops waiting for it this long after the agent exits.
	c.WaitDelay = time.Second
	stdin, err := c.StdinPipe()
	if err != nil {
		h.Message = fmt.Sprintf("%s could not be checked: %v", a.display, err)
		return h
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		h.Message = fmt.Sprintf("%s could not be checked: %v", a.display, err)
		return h
	}
	var stderr tailBuffer
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		h.Message = fmt.Sprintf("%s is installed at %s but could not be started: %v", a.display, path, err)
		return h
	}
	defer func() {
		stdin.Close() // an ACP agent ends at the end of its input
		done := make(chan struct{})
		go func() { _ = c.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Second):
			killGroup(c.Process) // not reaped yet: the group is still its own
			<-done
		}
	}()

	answer := make(chan initAnswer, 1)
	go func() { answer <- readInitAnswer(stdout) }()
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": acpsdk.InitializeRequest{
		ProtocolVersion:    acpsdk.ProtocolVersionNumber,
		ClientCapabilities: acpsdk.ClientCapabilities{},
		ClientInfo:         &acpsdk.Implementation{Name: "hermesdesk", Title: acpsdk.Ptr("Hermes Desk"), Version: version.Version},
	}})
	if _, err := stdin.Write(append(req, '\n')); err != nil {
		// It exited before reading: its own words say why.
		r := <-answer
		h.Message = a.healthProblem(r.err, stderr.String())
		return h
	}
	select {
	case r := <-answer:
		if r.err != nil {
			h.Message = a.healthProblem(r.err, stderr.String())
			return h
		}
		h.OK, h.Version = true, clipString(r.version, 100)
		return h
	case <-ctx.Done():
		secs := int(HealthHandshakeTimeout / time.Second)
		h.Message = fmt.Sprintf("%s is installed at %s but did not answer the ACP handshake (initialize) within %d s — is `%s` its ACP mode?",
			a.display, path, secs, strings.Join(append([]string{path}, args...), " "))
		return h
	}
}

type initAnswer struct {
	version string
	err     error
}

// readInitAnswer reads the agent's output up to the answer to request 1;
// lines that are not JSON-RPC (a banner, a log line) are skipped.
func readInitAnswer(out interface{ Read([]byte) (int, error) }) initAnswer {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), maxHealthLine)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result *struct {
				AgentInfo *struct {
					Name    string `json:"name"`
					Version string `json:"version"`
				} `json:"agentInfo"`
			} `json:"result"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.Method != "" || string(msg.ID) != "1" {
			continue
		}
		switch {
		case msg.Error != nil:
			return initAnswer{err: fmt.Errorf("it refused the ACP handshake: %s", clipString(msg.Error.Message, 200))}
		case msg.Result == nil:
			return initAnswer{err: errors.New("its answer to the ACP handshake was empty")}
		case msg.Result.AgentInfo != nil:
			return initAnswer{version: msg.Result.AgentInfo.Version}
		}
		return initAnswer{}
	}
	return initAnswer{err: errExitedEarly}
}

var errExitedEarly = errors.New("it exited before answering the ACP handshake")

// healthProblem words a failed check; the agent's last line of stderr says
// more than we can.
func (a *Adapter) healthProblem(err error, stderr string) string {
	msg := fmt.Sprintf("%s is installed but %v", a.display, err)
	if line := lastLine(stderr); line != "" && errors.Is(err, errExitedEarly) {
		msg += ": " + clipString(line, 200)
	}
	return msg
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// tailBuffer keeps the last few KiB written to it (an agent's stderr).
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

const tailKeep = 4 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > tailKeep {
		t.b = t.b[len(t.b)-tailKeep:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
