package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// conn is one claude process serving a session's turns over stdin/stdout.
type conn struct {
	proc   adapter.Proc
	out    *procio.JSONWriter
	log    io.Writer
	mapper *Mapper
	sid    string
	forked bool // the session is a native fork (fork.go)

	reqSeq  atomic.Int64
	done    chan struct{} // closed when stdout ends (the process is gone)
	waiters procio.Waiters[string, ControlResponse]

	mu        sync.Mutex
	turn      *turnState
	approvals map[string]*ControlRequest
	closeOnce sync.Once
}

type turnState struct {
	emit      adapter.Emitter
	result    chan *Result
	cancelled bool
}

var _ adapter.Conn = (*conn)(nil)

func newConn(proc adapter.Proc, sid, workspace string, log io.Writer) *conn {
	return &conn{proc: proc, out: procio.NewJSONWriter(proc.Stdin()), log: log, mapper: NewMapper(workspace), sid: sid,
		done: make(chan struct{}), approvals: map[string]*ControlRequest{}}
}

func (c *conn) NativeSessionID() string { return c.sid }
func (c *conn) Pid() int                { return c.proc.Pid() }
func (c *conn) Done() <-chan struct{}   { return c.done }

// read owns stdout: it maps every line and routes the result to the running
// turn, a control waiter or the pending approvals.
func (c *conn) read() {
	defer close(c.done)
	procio.ReadJSONLines(c.proc.Stdout(), func() { logf(c.log, "skipped an oversized line") }, func(line []byte) {
		c.mu.Lock()
		m, err := c.mapper.Map(line)
		t := c.turn
		c.mu.Unlock()
		if err != nil {
			logf(c.log, "%v", err)
			return
		}
		if t != nil {
			for _, e := range m.Events {
				if err := t.emit.Emit(e.Type, e.Payload); err != nil {
					logf(c.log, "emit %s: %v", e.Type, err)
				}
			}
		}
		if m.Response != nil {
			c.waiters.Deliver(m.Response.RequestID, *m.Response)
		}
		if m.Control != nil {
			c.onControl(t, m.Control)
		}
		if m.Result != nil && t != nil {
			t.result <- m.Result
		}
	})
}

func (c *conn) onControl(t *turnState, req *ControlRequest) {
	if req.Approval == nil || t == nil {
		// Hooks, MCP messages, …: we registered none, so refuse rather than
		// leave the CLI waiting forever.
		_ = c.out.Write(controlError(req.RequestID, "unsupported control request: "+req.Subtype))
		return
	}
	c.mu.Lock()
	c.approvals[req.RequestID] = req
	c.mu.Unlock()
	if err := t.emit.Emit(run.EventApprovalRequest, *req.Approval); err != nil {
		logf(c.log, "emit approval: %v", err)
	}
}

func controlError(id, msg string) map[string]any {
	return map[string]any{"type": "control_response", "response": map[string]any{"subtype": "error", "request_id": id, "error": msg}}
}

// control sends a control request and waits for its response.
func (c *conn) control(ctx context.Context, request map[string]any) error {
	id := "hd_" + strconv.FormatInt(c.reqSeq.Add(1), 10)
	ch := c.waiters.Add(id)
	defer c.waiters.Drop(id)
	if err := c.out.Write(map[string]any{"type": "control_request", "request_id": id, "request": request}); err != nil {
		return err
	}
	select {
	case r := <-ch:
		if r.Error != "" {
			return fmt.Errorf("claude: %s: %s", request["subtype"], trimErr(r.Error))
		}
		return nil
	case <-c.done:
		return fmt.Errorf("claude: %s: %w", request["subtype"], adapter.ErrAgentExited)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Turn implements adapter.Conn.
func (c *conn) Turn(ctx context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
	t := &turnState{emit: emit, result: make(chan *Result, 1)}
	c.mu.Lock()
	if c.turn != nil {
		c.mu.Unlock()
		return adapter.TurnResult{Err: adapter.ErrBusy}
	}
	c.turn = t
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.turn = nil
		c.approvals = map[string]*ControlRequest{}
		c.mu.Unlock()
	}()
	if req.Model != "" {
		if err := c.SetModel(ctx, req.Model); err != nil {
			logf(c.log, "set model: %v", err)
		}
	}
	files, err := attach.Load(req.Attachments, true)
	if err != nil {
		return adapter.TurnResult{Err: err}
	}
	msg := map[string]any{"type": "user", "session_id": "", "parent_tool_use_id": nil,
		"message": map[string]any{"role": "user", "content": userContent(req.Message, files)}}
	if err := c.out.Write(msg); err != nil {
		return adapter.TurnResult{Err: fmt.Errorf("claude: send message: %w", err)}
	}
	select {
	case r := <-t.result:
		return c.finish(t, r)
	case <-c.done:
		// The result may have raced the exit.
		select {
		case r := <-t.result:
			return c.finish(t, r)
		default:
		}
		c.mu.Lock()
		cancelled := t.cancelled
		c.mu.Unlock()
		return procio.ExitedResult(c.proc, cancelled)
	}
}

func (c *conn) finish(t *turnState, r *Result) adapter.TurnResult {
	c.mu.Lock()
	cancelled := t.cancelled
	c.mu.Unlock()
	res := adapter.TurnResult{StopReason: r.StopReason, Usage: r.Usage, Cancelled: cancelled}
	if cancelled {
		res.StopReason = "cancelled"
		return res
	}
	if r.IsError {
		msg := r.Text
		if msg == "" {
			msg = r.Subtype
		}
		res.Err = fmt.Errorf("claude: %s", trimErr(msg))
	}
	return res
}

// Cancel implements adapter.Conn: the interrupt control request stops the
// turn and the CLI then ends it with a result frame. If the CLI ignores it,
// the shim escalates to signals.
func (c *conn) Cancel(ctx context.Context) error {
	c.mu.Lock()
	t := c.turn
	if t != nil {
		t.cancelled = true
	}
	c.mu.Unlock()
	if t == nil {
		return adapter.ErrNotPending
	}
	// Fire and forget: the response comes back through read(), and the turn
	// ends with the result frame either way.
	id := "hd_" + strconv.FormatInt(c.reqSeq.Add(1), 10)
	return c.out.Write(map[string]any{"type": "control_request", "request_id": id, "request": map[string]any{"subtype": "interrupt"}})
}

// RespondApproval implements adapter.Conn.
func (c *conn) RespondApproval(_ context.Context, approvalID, optionID string) error {
	c.mu.Lock()
	req, ok := c.approvals[approvalID]
	if ok && (optionID == OptionAllow || optionID == OptionDeny) {
		delete(c.approvals, approvalID)
		if optionID == OptionDeny {
			c.mapper.Denied(req.ToolUseID)
		}
	}
	c.mu.Unlock()
	if !ok {
		return adapter.ErrNotPending
	}
	var decision map[string]any
	switch optionID {
	case OptionAllow:
		input := req.Input
		if len(input) == 0 {
			input = json.RawMessage(`{}`)
		}
		decision = map[string]any{"behavior": "allow", "updatedInput": input}
	case OptionDeny:
		decision = map[string]any{"behavior": "deny", "message": "The user denied this action."}
	default:
		return fmt.Errorf("claude: option %q: %w", optionID, adapter.ErrInvalidAnswer)
	}
	return c.out.Write(map[string]any{"type": "control_response",
		"response": map[string]any{"subtype": "success", "request_id": approvalID, "response": decision}})
}

// RespondClarify implements adapter.Conn; Claude Code asks no questions
// through this protocol.
func (c *conn) RespondClarify(context.Context, string, string) error { return adapter.ErrUnsupported }

// SetModel implements adapter.Conn through the set_model control request.
func (c *conn) SetModel(ctx context.Context, model string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return c.control(ctx, map[string]any{"subtype": "set_model", "model": model})
}

// closeGrace is how long the CLI gets after stdin closes, and after SIGTERM.
const closeGrace = 3 * time.Second

// Close implements adapter.Conn.
func (c *conn) Close() error {
	c.closeOnce.Do(func() { procio.Stop(c.proc, closeGrace) })
	<-c.done
	return nil
}
