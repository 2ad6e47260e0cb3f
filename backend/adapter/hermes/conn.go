package hermes

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
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

	turn      procio.PerTurn
	mu        sync.Mutex // guards sid and model
	sid       string
	model     string
	closeOnce sync.Once
}

var _ adapter.Conn = (*conn)(nil)

func (c *conn) Done() <-chan struct{} { return c.done }

func (c *conn) NativeSessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sid
}

func (c *conn) Pid() int { return c.turn.Pid() }

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
	started := time.Now()
	// hermes chat takes text only: attachments are named by path.
	message, err := attach.MentionPaths(req.Message, req.Attachments)
	if err != nil {
		return adapter.TurnResult{Err: err}
	}
	proc, err := c.turn.Launch(func() (adapter.Proc, error) {
		c.mu.Lock()
		model, sid := c.model, c.sid
		c.mu.Unlock()
		if req.Model != "" {
			model = req.Model
		}
		args := append(append([]string{}, c.prefix...), Args(message, sid, model, c.structured, c.req.Metadata[MetaYolo] == "1")...)
		p, err := c.host.Launcher.Launch(ctx, adapter.ProcSpec{Path: c.path, Args: args, Dir: c.req.Workspace, Env: c.env})
		if err != nil {
			return nil, fmt.Errorf("hermes: launch: %w", err)
		}
		return p, nil
	})
	if err != nil {
		return adapter.TurnResult{Err: err}
	}
	_ = proc.Stdin().Close()

	var result *Result
	if c.structured {
		result = c.readFrames(proc.Stdout(), emit)
	} else {
		procio.StreamText(proc.Stdout(), emit)
	}
	code, werr := proc.Wait()

	cancelled := c.turn.Finish()
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
	procio.ReadJSONLines(r, nil, func(line []byte) {
		mp, err := m.Map(line)
		if err != nil {
			logf(c.host.Log, "%v", err)
			return
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
	})
	return result
}

// cancelGrace is how long Hermes gets to stop after SIGINT, and after SIGTERM.
const cancelGrace = 3 * time.Second

// Cancel implements adapter.Conn: SIGINT, as Ctrl-C would (Hermes then
// saves the session and exits 130); signals escalate if it lingers.
func (c *conn) Cancel(context.Context) error {
	p, err := c.turn.Cancel()
	if err != nil {
		return err
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
		if p := c.turn.Close(); p != nil {
			procio.Terminate(p, cancelGrace)
		}
		close(c.done)
	})
	return nil
}
