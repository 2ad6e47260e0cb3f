package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// onRequest serves the agent's requests, each on its own goroutine; ctx
// ends when the agent's output does.
func (c *conn) onRequest(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "session/request_permission":
		return c.permission(ctx, params)
	case ClarifyMethod:
		return c.clarify(ctx, params)
	case "fs/read_text_file":
		return c.readFile(params)
	case "fs/write_text_file":
		return c.writeFile(params)
	case "terminal/create":
		return c.terms.create(params)
	case "terminal/output":
		return c.terms.output(params)
	case "terminal/wait_for_exit":
		return c.terms.wait(ctx, params)
	case "terminal/kill":
		return c.terms.kill(params)
	case "terminal/release":
		return c.terms.release(params)
	}
	c.log.Info("acp: agent called a method we do not serve", "method", method)
	return nil, &RPCError{Code: codeMethodNotFound, Message: "Method not found: " + method}
}

type permissionOutcome struct {
	Outcome struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId,omitempty"`
	} `json:"outcome"`
}

func cancelledOutcome() permissionOutcome {
	var o permissionOutcome
	o.Outcome.Outcome = "cancelled"
	return o
}

// permission emits approval.requested and blocks the agent's request until
// a person answers or the turn ends.
func (c *conn) permission(ctx context.Context, params json.RawMessage) (any, error) {
	var p permissionParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &RPCError{Code: codeInvalidParams, Message: "Invalid params: " + err.Error()}
	}
	id := newID("appr")
	t := c.currentTurn()
	if t == nil {
		if _, err := approvalRequested(p, toolInfo{}, id, c.ws.dir); err != nil {
			return nil, &RPCError{Code: codeInvalidParams, Message: err.Error()}
		}
		c.log.Warn("acp: permission asked outside a turn; answering cancelled")
		return cancelledOutcome(), nil
	}
	// The request is merged with what the turn's mapper knows of its tool
	// call: the reader has mapped every update that came before it.
	t.mu.Lock()
	ev, err := approvalRequested(p, t.m.Known(toolCallIDOf(p.ToolCall)), id, c.ws.dir)
	t.mu.Unlock()
	if err != nil {
		return nil, &RPCError{Code: codeInvalidParams, Message: err.Error()}
	}
	q := &ask{kind: "approval", turn: t, options: p.Options, answer: make(chan string, 1)}
	// Register before emitting: a fast answer must find it.
	c.mu.Lock()
	c.asks[id] = q
	c.mu.Unlock()
	defer c.forget(id)

	t.mu.Lock()
	c.emitAll(t, t.m.ToolSeen(p.ToolCall))
	c.emitAll(t, []Out{{run.EventApprovalRequest, ev}})
	t.mu.Unlock()

	select {
	case optionID := <-q.answer:
		if o, ok := pickOption(p.Options, optionID); ok && isReject(o) {
			t.mu.Lock()
			t.m.Denied(ev.ToolCallID)
			t.mu.Unlock()
		}
		out := permissionOutcome{}
		out.Outcome.Outcome, out.Outcome.OptionID = "selected", optionID
		return out, nil
	case <-t.stop:
		return cancelledOutcome(), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// clarify serves ClarifyMethod like permission.
func (c *conn) clarify(ctx context.Context, params json.RawMessage) (any, error) {
	var p ClarifyParams
	if err := json.Unmarshal(params, &p); err != nil || p.Question == "" {
		return nil, &RPCError{Code: codeInvalidParams, Message: "Invalid params: a question is required"}
	}
	t := c.currentTurn()
	if t == nil {
		return ClarifyResult{Outcome: ClarifyCancelled}, nil
	}
	id := newID("clar")
	q := &ask{kind: "clarify", turn: t, answer: make(chan string, 1)}
	c.mu.Lock()
	c.asks[id] = q
	c.mu.Unlock()
	defer c.forget(id)

	t.mu.Lock()
	c.emitAll(t, []Out{{run.EventClarifyRequest, run.ClarifyRequested{ClarifyID: id, Question: p.Question, Choices: p.Choices}}})
	t.mu.Unlock()

	select {
	case a := <-q.answer:
		return ClarifyResult{Outcome: ClarifyAnswered, Answer: a}, nil
	case <-t.stop:
		return ClarifyResult{Outcome: ClarifyCancelled}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *conn) forget(id string) {
	c.mu.Lock()
	delete(c.asks, id)
	c.mu.Unlock()
}

type readParams struct {
	Path  string `json:"path"`
	Line  *int   `json:"line"`
	Limit *int   `json:"limit"`
}

func (c *conn) readFile(params json.RawMessage) (any, error) {
	var p readParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &RPCError{Code: codeInvalidParams, Message: "Invalid params: " + err.Error()}
	}
	content, err := c.ws.read(p.Path, p.Line, p.Limit)
	if err != nil {
		return nil, c.fsErr("read", p.Path, err)
	}
	return map[string]string{"content": content}, nil
}

func (c *conn) writeFile(params json.RawMessage) (any, error) {
	var p struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &RPCError{Code: codeInvalidParams, Message: "Invalid params: " + err.Error()}
	}
	rel, created, err := c.ws.write(p.Path, p.Content)
	if err != nil {
		return nil, c.fsErr("write", p.Path, err)
	}
	action := "modified"
	if created {
		action = "created"
	}
	if t := c.currentTurn(); t != nil {
		t.mu.Lock()
		c.emitAll(t, []Out{{run.EventFileChanged, run.FileChanged{Path: rel, Action: action}}})
		t.mu.Unlock()
	} else {
		c.log.Info("acp: agent wrote a file outside a turn", "path", rel)
	}
	return struct{}{}, nil
}

// fsErr is the error the agent sees: clear enough for a model to act on.
func (c *conn) fsErr(op, path string, err error) error {
	c.log.Warn("acp: refused a file "+op, "path", path, "err", err)
	msg := fmt.Sprintf("cannot %s %s: %v", op, path, err)
	if errors.Is(err, ErrOutsideWorkspace) {
		msg = fmt.Sprintf("cannot %s %s: Hermes Desk only lets agents %s files inside the workspace %s", op, path, op, c.ws.dir)
	}
	data, _ := json.Marshal(map[string]string{"error": msg, "path": path})
	return &RPCError{Code: codeInvalidParams, Message: msg, Data: data}
}
