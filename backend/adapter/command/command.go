// Package command runs any command line as an agent: one process per turn,
// the message as an argument, its stdout streamed as the answer.
package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/locate"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
)

// Name is the agent id.
const Name = "command"

// Placeholder in a configured argument is replaced by the user's message;
// without one the message is appended as the last argument.
const Placeholder = "{message}"

// ErrNoCommand: no command line is configured.
var ErrNoCommand = errors.New("command: no command line configured")

// Adapter is the generic command-line adapter.
type Adapter struct{}

var _ adapter.Adapter = Adapter{}

// New returns the adapter.
func New() Adapter { return Adapter{} }

// Name implements adapter.Adapter.
func (Adapter) Name() string { return Name }

// DisplayName implements adapter.Adapter.
func (Adapter) DisplayName() string { return "Any command" }

// Capabilities implements adapter.Adapter.
func (Adapter) Capabilities() adapter.Capabilities {
	return adapter.Capabilities{Streaming: true, Cancel: true}
}

// Health implements adapter.Adapter: the program exists. It is not run —
// an arbitrary program has no agreed harmless flag.
func (Adapter) Health(_ context.Context, cfg adapter.Config) adapter.Health {
	if len(cfg.Command) == 0 {
		return adapter.Health{Message: "Set the command line to run (e.g. llm -m mistral " + Placeholder + ")"}
	}
	p, err := locate.Find(cfg.Command, "")
	if err != nil {
		return adapter.Health{Message: cfg.Command[0] + " not found — check the command line in the agent's settings"}
	}
	return adapter.Health{Installed: true, OK: true, Path: p}
}

// Argv builds the argument list (without the program) for one message.
func Argv(command []string, message string) []string {
	var args []string
	replaced := false
	for _, a := range command[1:] {
		if strings.Contains(a, Placeholder) {
			a, replaced = strings.ReplaceAll(a, Placeholder, message), true
		}
		args = append(args, a)
	}
	if !replaced {
		args = append(args, message)
	}
	return args
}

// Start implements adapter.Adapter. Nothing runs until the first turn.
func (Adapter) Start(_ context.Context, req adapter.StartRequest, host adapter.Host) (adapter.Conn, error) {
	if len(req.Config.Command) == 0 {
		return nil, ErrNoCommand
	}
	path, err := locate.Find(req.Config.Command, "")
	if err != nil {
		return nil, fmt.Errorf("command: %w: %w", err, adapter.ErrNotInstalled)
	}
	return &conn{path: path, req: req, host: host, done: make(chan struct{})}, nil
}

type conn struct {
	path string
	req  adapter.StartRequest
	host adapter.Host
	done chan struct{}

	turn      procio.PerTurn
	closeOnce sync.Once
}

var _ adapter.Conn = (*conn)(nil)

func (c *conn) NativeSessionID() string { return "" }
func (c *conn) Done() <-chan struct{}   { return c.done }

func (c *conn) Pid() int { return c.turn.Pid() }

// Turn implements adapter.Conn.
func (c *conn) Turn(ctx context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
	env := append(os.Environ(), c.req.Config.Env...)
	// A command line takes text only: attachments are named by path.
	message, err := attach.MentionPaths(req.Message, req.Attachments)
	if err != nil {
		return adapter.TurnResult{Err: err}
	}
	proc, err := c.turn.Launch(func() (adapter.Proc, error) {
		p, err := c.host.Launcher.Launch(ctx, adapter.ProcSpec{Path: c.path, Args: Argv(c.req.Config.Command, message),
			Dir: c.req.Workspace, Env: env})
		if err != nil {
			return nil, fmt.Errorf("command: launch: %w", err)
		}
		return p, nil
	})
	if err != nil {
		return adapter.TurnResult{Err: err}
	}
	_ = proc.Stdin().Close() // the message is an argument; EOF, not a waiting pipe

	procio.StreamText(proc.Stdout(), emit)
	code, werr := proc.Wait()

	cancelled := c.turn.Finish()
	res := adapter.TurnResult{ExitCode: &code, Cancelled: cancelled}
	switch {
	case cancelled:
		res.StopReason = "cancelled"
	case werr != nil:
		res.Err = fmt.Errorf("command: wait: %w", werr)
	case code != 0:
		res.Err = fmt.Errorf("command: %s exited with code %d", c.req.Config.Command[0], code)
	default:
		res.StopReason = "exit"
	}
	return res
}

// cancelGrace is how long the command gets between SIGTERM and SIGKILL.
const cancelGrace = 2 * time.Second

// Cancel implements adapter.Conn: the command's process group is stopped.
func (c *conn) Cancel(context.Context) error {
	p, err := c.turn.Cancel()
	if err != nil {
		return err
	}
	go procio.Terminate(p, cancelGrace)
	return nil
}

func (c *conn) RespondApproval(context.Context, string, string) error { return adapter.ErrUnsupported }
func (c *conn) RespondClarify(context.Context, string, string) error  { return adapter.ErrUnsupported }
func (c *conn) SetModel(context.Context, string) error                { return adapter.ErrUnsupported }

// Close implements adapter.Conn: stops a running command.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		if p := c.turn.Close(); p != nil {
			procio.Stop(p, cancelGrace)
		}
		close(c.done)
	})
	return nil
}
