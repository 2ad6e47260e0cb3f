package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// conn is one `codex app-server` process serving one thread.
type conn struct {
	proc     adapter.Proc
	out      *procio.JSONWriter
	log      io.Writer
	mapper   *Mapper
	threadID string
	forked   bool // the thread is a native fork (fork.go)

	seq     atomic.Int64
	done    chan struct{}
	pending procio.Waiters[int64, Response]

	mu        sync.Mutex
	turn      *turnState
	approvals map[string]*ServerRequest
	usage     *run.Usage // thread total so far
	model     string     // set by SetModel, sent with every later turn/start
	// startModel is the model thread/start or thread/resume answered
	// with: the one turns run on until SetModel picks another.
	startModel string
	// startModels is model/list's answer at start, emitted by the first
	// turn (a conn's events reach a run only through a turn).
	startModels *run.ModelUpdated
	closeOnce   sync.Once
}

type turnState struct {
	emit      adapter.Emitter
	id        string
	idReady   chan struct{} // closed once id is known (turn/start answered)
	end       chan TurnEnd
	cancelled bool
	before    run.Usage
}

var _ adapter.Conn = (*conn)(nil)

func newConn(proc adapter.Proc, workspace string, log io.Writer) *conn {
	return &conn{proc: proc, out: procio.NewJSONWriter(proc.Stdin()), log: log, mapper: NewMapper(workspace),
		done: make(chan struct{}), approvals: map[string]*ServerRequest{}}
}

func (c *conn) NativeSessionID() string { return c.threadID }
func (c *conn) Pid() int                { return c.proc.Pid() }
func (c *conn) Done() <-chan struct{}   { return c.done }

func (c *conn) read() {
	defer close(c.done)
	procio.ReadJSONLines(c.proc.Stdout(), func() { logf(c.log, "skipped an oversized line") }, func(line []byte) {
		c.mu.Lock()
		m, err := c.mapper.Map(line)
		t := c.turn
		if m.Usage != nil {
			c.usage = m.Usage
		}
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
		if r := m.Response; r != nil {
			c.pending.Deliver(r.ID, *r)
		}
		if m.Request != nil {
			c.onRequest(t, m.Request)
		}
		if m.TurnEnd != nil && t != nil {
			select {
			case t.end <- *m.TurnEnd:
			default:
			}
		}
	})
}

func (c *conn) onRequest(t *turnState, req *ServerRequest) {
	if req.Approval == nil || t == nil {
		// Questions, MCP elicitations, dynamic tools: not wired yet; an
		// error answer lets codex carry on instead of waiting forever.
		_ = c.out.Write(map[string]any{"id": req.ID, "error": map[string]any{"code": -32601, "message": "not supported by Hermes Desk: " + req.Method}})
		return
	}
	c.mu.Lock()
	c.approvals[req.Approval.ApprovalID] = req
	c.mu.Unlock()
	if err := t.emit.Emit(run.EventApprovalRequest, *req.Approval); err != nil {
		logf(c.log, "emit approval: %v", err)
	}
}

func (c *conn) notify(method string, params any) error {
	m := map[string]any{"method": method}
	if params != nil {
		m["params"] = params
	}
	return c.out.Write(m)
}

func (c *conn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	id := c.seq.Add(1)
	ch := c.pending.Add(id)
	defer c.pending.Drop(id)
	if err := c.out.Write(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		if r.Error != "" {
			return nil, errors.New(r.Error)
		}
		return r.Result, nil
	case <-c.done:
		return nil, adapter.ErrAgentExited
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *conn) callInto(ctx context.Context, method string, params, into any) error {
	raw, err := c.call(ctx, method, params)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("decode %s result: %w", method, err)
	}
	return nil
}

// Turn implements adapter.Conn.
func (c *conn) Turn(ctx context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
	t := &turnState{emit: emit, end: make(chan TurnEnd, 1), idReady: make(chan struct{})}
	c.mu.Lock()
	if c.turn != nil {
		c.mu.Unlock()
		return adapter.TurnResult{Err: adapter.ErrBusy}
	}
	if c.usage != nil {
		t.before = *c.usage
	}
	c.turn = t
	models := c.startModels
	c.startModels = nil
	c.mu.Unlock()
	if models != nil {
		_ = emit.Emit(run.EventModelUpdated, *models)
	}
	defer func() {
		c.mu.Lock()
		c.turn = nil
		c.approvals = map[string]*ServerRequest{}
		c.mu.Unlock()
	}()
	files, err := attach.Load(req.Attachments, false)
	if err != nil {
		return adapter.TurnResult{Err: err}
	}
	params := map[string]any{"threadId": c.threadID, "input": turnInput(req.Message, files)}
	c.mu.Lock()
	model := c.model
	c.mu.Unlock()
	if req.Model != "" {
		model = req.Model
	}
	if model != "" {
		params["model"] = model
	}
	var res struct {
		Turn struct {
			ID string `json:"id"`
		} `json:"turn"`
	}
	// The call returns at once; the turn runs on and ends with turn/completed.
	if err := c.callInto(ctx, "turn/start", params, &res); err != nil {
		close(t.idReady)
		return adapter.TurnResult{Err: fmt.Errorf("codex: turn/start: %w", err)}
	}
	c.mu.Lock()
	t.id = res.Turn.ID
	c.mu.Unlock()
	close(t.idReady)
	select {
	case end := <-t.end:
		return c.finish(t, end)
	case <-c.done:
		select {
		case end := <-t.end:
			return c.finish(t, end)
		default:
		}
		c.mu.Lock()
		cancelled := t.cancelled
		c.mu.Unlock()
		return procio.ExitedResult(c.proc, cancelled)
	}
}

func (c *conn) finish(t *turnState, end TurnEnd) adapter.TurnResult {
	c.mu.Lock()
	cancelled := t.cancelled
	var usage *run.Usage
	if c.usage != nil {
		usage = turnUsage(*c.usage, t.before)
		usage.Model = c.model
		if usage.Model == "" {
			usage.Model = c.startModel
		}
	}
	c.mu.Unlock()
	res := adapter.TurnResult{StopReason: end.Status, Usage: usage}
	switch {
	case end.Status == "interrupted" || cancelled:
		res.Cancelled, res.StopReason = true, "cancelled"
	case end.Status == "failed":
		msg := end.Error
		if msg == "" {
			msg = "turn failed"
		}
		res.Err = fmt.Errorf("codex: %s", msg)
	}
	return res
}

// Cancel implements adapter.Conn with turn/interrupt.
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
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	// A cancel right after the message was sent must wait for the turn id
	// that turn/interrupt needs.
	select {
	case <-t.idReady:
	case <-ctx.Done():
		return ctx.Err()
	}
	c.mu.Lock()
	turnID := t.id
	c.mu.Unlock()
	_, err := c.call(ctx, "turn/interrupt", map[string]any{"threadId": c.threadID, "turnId": turnID})
	return err
}

// RespondApproval implements adapter.Conn; optionID is a codex decision.
func (c *conn) RespondApproval(_ context.Context, approvalID, optionID string) error {
	c.mu.Lock()
	req, ok := c.approvals[approvalID]
	valid := ok && hasOption(req.Approval.Options, optionID)
	if valid {
		delete(c.approvals, approvalID)
	}
	c.mu.Unlock()
	if !ok {
		return adapter.ErrNotPending
	}
	if !valid {
		return fmt.Errorf("codex: option %q: %w", optionID, adapter.ErrInvalidAnswer)
	}
	return c.out.Write(map[string]any{"id": req.ID, "result": map[string]any{"decision": optionID}})
}

// RespondClarify implements adapter.Conn (codex's request_user_input is
// experimental and not wired).
func (c *conn) RespondClarify(context.Context, string, string) error { return adapter.ErrUnsupported }

// SetModel implements adapter.Conn: turn/start takes a model that sticks
// for later turns, so the next turn carries it.
func (c *conn) SetModel(_ context.Context, model string) error {
	c.mu.Lock()
	c.model = model
	c.mu.Unlock()
	return nil
}

const closeGrace = 3 * time.Second

// Close implements adapter.Conn.
func (c *conn) Close() error {
	c.closeOnce.Do(func() { procio.Stop(c.proc, closeGrace) })
	<-c.done
	return nil
}

// turnUsage is one turn's share of the thread's running total: the
// counters since the turn began, the context figures as they stand now.
func turnUsage(total, before run.Usage) *run.Usage {
	return &run.Usage{InputTokens: total.InputTokens - before.InputTokens, OutputTokens: total.OutputTokens - before.OutputTokens,
		CachedTokens: total.CachedTokens - before.CachedTokens, CacheWriteTokens: total.CacheWriteTokens - before.CacheWriteTokens,
		ReasoningTokens: total.ReasoningTokens - before.ReasoningTokens,
		ContextTokens:   total.ContextTokens, ContextWindow: total.ContextWindow}
}
