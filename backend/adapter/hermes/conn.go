package hermes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// sessionSource tags our sessions in Hermes' store, keeping them out of a
// person's own session lists and letting us find the one a turn created.
const sessionSource = "tool"

// exitInterrupted is Hermes' exit code after SIGINT.
const exitInterrupted = 130

type conn struct {
	path       string
	prefix     []string
	env        []string
	home       string
	req        adapter.StartRequest
	host       adapter.Host
	structured bool
	done       chan struct{}

	mu        sync.Mutex
	sid       string
	model     string
	proc      adapter.Proc
	cancelled bool
	closed    bool
	closeOnce sync.Once
}

var _ adapter.Conn = (*conn)(nil)

func (c *conn) Done() <-chan struct{} { return c.done }

func (c *conn) NativeSessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sid
}

func (c *conn) Pid() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc == nil {
		return 0
	}
	return c.proc.Pid()
}

// Args is the command line after the program for one turn.
func Args(message, sessionID, model string, structured, yolo bool) []string {
	args := []string{"chat", "-q", message, "--source", sessionSource}
	if structured {
		args = append(args, "--format", "stream-json")
	} else {
		args = append(args, "-Q")
	}
	if sessionID != "" {
		args = append(args, "--resume", sessionID)
	}
	if model != "" {
		args = append(args, "-m", model)
	}
	if yolo {
		args = append(args, "--yolo")
	}
	return args
}

// Turn implements adapter.Conn: one `hermes chat -q` process.
func (c *conn) Turn(ctx context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
	c.mu.Lock()
	if c.proc != nil {
		c.mu.Unlock()
		return adapter.TurnResult{Err: adapter.ErrBusy}
	}
	if c.closed {
		c.mu.Unlock()
		return adapter.TurnResult{Err: adapter.ErrAgentExited}
	}
	model := c.model
	if req.Model != "" {
		model = req.Model
	}
	args := append(append([]string{}, c.prefix...), Args(req.Message, c.sid, model, c.structured, c.req.Metadata[MetaYolo] == "1")...)
	started := time.Now()
	proc, err := c.host.Launcher.Launch(ctx, adapter.ProcSpec{Path: c.path, Args: args, Dir: c.req.Workspace, Env: c.env})
	if err != nil {
		c.mu.Unlock()
		return adapter.TurnResult{Err: fmt.Errorf("hermes: launch: %w", err)}
	}
	c.proc, c.cancelled = proc, false
	c.mu.Unlock()
	_ = proc.Stdin().Close()

	var result *Result
	if c.structured {
		result = c.readFrames(proc.Stdout(), emit)
	} else {
		streamText(proc.Stdout(), emit)
	}
	code, werr := proc.Wait()

	c.mu.Lock()
	cancelled := c.cancelled
	c.proc = nil
	c.mu.Unlock()
	res := adapter.TurnResult{ExitCode: &code, Cancelled: cancelled || code == exitInterrupted, StopReason: "end_turn"}
	if result != nil {
		res.Usage = result.Usage
		if result.SessionID != "" {
			c.setSession(result.SessionID)
		}
	}
	if !c.structured {
		c.learnSession(ctx, started)
	}
	switch {
	case res.Cancelled:
		res.StopReason = "cancelled"
	case werr != nil:
		res.Err = fmt.Errorf("hermes: wait: %w", werr)
	case result != nil && result.Error != "":
		res.Err = fmt.Errorf("hermes: %s", result.Error)
	case code != 0:
		res.Err = fmt.Errorf("hermes: exited with code %d", code)
	}
	return res
}

func (c *conn) setSession(id string) {
	c.mu.Lock()
	c.sid = id
	c.mu.Unlock()
}

// learnSession finds the session a quiet-mode turn used. A resumed session
// keeps its id, so only a first turn needs the lookup.
func (c *conn) learnSession(ctx context.Context, started time.Time) {
	if c.NativeSessionID() != "" {
		return
	}
	home := c.home
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return
		}
		home = filepath.Join(h, ".hermes")
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	// Hermes' clock and ours agree; the margin covers float rounding.
	id, err := newestSession(ctx, home, sessionSource, started.Add(-2*time.Second))
	if err != nil {
		logf(c.host.Log, "session id: %v", err)
		return
	}
	c.setSession(id)
}

func (c *conn) readFrames(r io.Reader, emit adapter.Emitter) *Result {
	var m Mapper
	var result *Result
	lr := procio.NewLineReader(r)
	for {
		line, err := lr.Next()
		if errors.Is(err, procio.ErrLineTooLong) {
			continue
		}
		if err != nil {
			return result
		}
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		mp, err := m.Map(line)
		if err != nil {
			logf(c.host.Log, "%v", err)
			continue
		}
		if mp.SessionID != "" {
			c.setSession(mp.SessionID)
		}
		for _, e := range mp.Events {
			_ = emit.Emit(e.Type, e.Payload)
		}
		if mp.Result != nil {
			result = mp.Result
		}
	}
}

// streamText emits stdout as it comes, never splitting a UTF-8 character.
func streamText(r io.Reader, emit adapter.Emitter) {
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := r.Read(buf)
		pending = append(pending, buf[:n]...)
		cut := len(pending)
		for i := len(pending) - 1; i >= 0 && i >= len(pending)-utf8.UTFMax; i-- {
			if utf8.RuneStart(pending[i]) {
				if !utf8.FullRune(pending[i:]) {
					cut = i
				}
				break
			}
		}
		if err != nil {
			cut = len(pending)
		}
		if cut > 0 {
			_ = emit.Emit(run.EventTokenDelta, run.TextDelta{Text: strings.ToValidUTF8(string(pending[:cut]), "\uFFFD")})
			pending = append(pending[:0], pending[cut:]...)
		}
		if err != nil {
			return
		}
	}
}

// cancelGrace is how long Hermes gets to stop after SIGINT, and after SIGTERM.
const cancelGrace = 3 * time.Second

// Cancel implements adapter.Conn: SIGINT, as Ctrl-C would (Hermes then
// saves the session and exits 130); signals escalate if it lingers.
func (c *conn) Cancel(context.Context) error {
	c.mu.Lock()
	p := c.proc
	if p != nil {
		c.cancelled = true
	}
	c.mu.Unlock()
	if p == nil {
		return adapter.ErrNotPending
	}
	procio.Interrupt(p.Pid())
	go func() {
		select {
		case <-p.Exited():
		case <-time.After(cancelGrace):
			procio.Terminate(p, cancelGrace)
		}
	}()
	return nil
}

func (c *conn) RespondApproval(context.Context, string, string) error { return adapter.ErrUnsupported }
func (c *conn) RespondClarify(context.Context, string, string) error  { return adapter.ErrUnsupported }

// SetModel implements adapter.Conn: later turns pass -m.
func (c *conn) SetModel(_ context.Context, model string) error {
	c.mu.Lock()
	c.model = model
	c.mu.Unlock()
	return nil
}

// Close implements adapter.Conn: stops a running turn.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		p := c.proc
		c.mu.Unlock()
		if p != nil {
			procio.Terminate(p, cancelGrace)
		}
		close(c.done)
	})
	return nil
}
