package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
)

// rpc is the client end of a JSON-RPC 2.0 connection over newline-delimited
// JSON. It is hand-rolled rather than the SDK's ClientSideConnection for
// three reasons: the SDK queues notifications in a bounded buffer and
// *closes the connection* when an agent outruns the consumer (a flooding
// agent would lose the run), it gives no hook to count malformed lines, and
// its strict union decoding would drop update kinds it does not know before
// we could count them. Here notifications are handled inline on the reader
// goroutine, so a slow consumer slows the agent through the pipe instead,
// and order is exact: every notification sent before a response is handled
// before that response is delivered.
type rpc struct {
	w   io.Writer
	wmu sync.Mutex
	log *slog.Logger

	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan frame

	onNotify  func(method string, params json.RawMessage)
	onRequest func(ctx context.Context, method string, params json.RawMessage) (any, error)
	// onResponse runs on the reader goroutine before a response is
	// delivered, i.e. after every notification sent before it.
	onResponse func(id int64)
	// onResult, when set, sees the result of every request of ours that
	// succeeded, before its caller does (the session's settings ride on
	// session/new's answer: conn.onResult).
	onResult func(method string, result json.RawMessage)

	ctx    context.Context // ends when the agent's stdout does
	cancel context.CancelFunc

	malformed atomic.Int64
}

// maxLine bounds one frame; longer lines are skipped (counted as
// malformed) without buffering them.
const maxLine = 64 << 20

var (
	errClosed = errors.New("agent connection closed")
	// errWrite: the agent's stdin is gone, which in practice means the
	// agent is too.
	errWrite = errors.New("writing to the agent")
)

func newRPC(r io.Reader, w io.Writer, log *slog.Logger,
	onNotify func(string, json.RawMessage),
	onRequest func(context.Context, string, json.RawMessage) (any, error),
	onResponse func(id int64),
) *rpc {
	ctx, cancel := context.WithCancel(context.Background())
	c := &rpc{w: w, log: log, pending: map[int64]chan frame{}, onNotify: onNotify, onRequest: onRequest, onResponse: onResponse, ctx: ctx, cancel: cancel}
	go c.read(r)
	return c
}

// Done is closed once the agent's output has ended.
func (c *rpc) Done() <-chan struct{} { return c.ctx.Done() }

func (c *rpc) read(r io.Reader) {
	defer c.cancel()
	// Held for as long as a warm shim keeps the agent: 16 KiB, not 64
	// (docs/ARCHITECTURE.md §Memory); readLine joins longer lines.
	br := bufio.NewReaderSize(r, 16<<10)
	for {
		line, err := readLine(br, maxLine)
		if len(bytes.TrimSpace(line)) > 0 || errors.Is(err, errLineTooLong) {
			c.handleLine(line, err)
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			if !errors.Is(err, io.EOF) {
				c.log.Warn("acp: reading agent output", "err", err)
			}
			return
		}
	}
}

func (c *rpc) handleLine(line []byte, readErr error) {
	if readErr != nil {
		c.malformed.Add(1)
		c.log.Warn("acp: skipped an over-long line from the agent", "limit", maxLine)
		return
	}
	f, err := parseFrame(line)
	if err != nil {
		c.malformed.Add(1)
		c.log.Warn("acp: ignored a malformed line from the agent", "err", err, "line", clip(line, 200))
		return
	}
	switch f.Kind {
	case frameNotification:
		c.onNotify(f.Method, f.Params)
	case frameRequest:
		// Requests may block (a permission prompt waits for a person), so
		// each gets its own goroutine; the reader keeps going.
		go c.serve(f)
	case frameResponse:
		if c.onResponse != nil {
			c.onResponse(f.RespID)
		}
		c.mu.Lock()
		ch, ok := c.pending[f.RespID]
		delete(c.pending, f.RespID)
		c.mu.Unlock()
		if !ok {
			c.malformed.Add(1)
			c.log.Warn("acp: ignored a response to no request of ours", "id", f.RespID)
			return
		}
		ch <- f
	}
}

func (c *rpc) serve(f frame) {
	res, err := c.onRequest(c.ctx, f.Method, f.Params)
	msg := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result,omitempty"`
		Error   *RPCError       `json:"error,omitempty"`
	}{JSONRPC: "2.0", ID: f.ID}
	if err != nil {
		var re *RPCError
		if !errors.As(err, &re) {
			re = &RPCError{Code: codeInternal, Message: err.Error()}
		}
		msg.Error = re
	} else {
		if res == nil {
			res = struct{}{}
		}
		msg.Result = res
	}
	if err := c.write(msg); err != nil {
		c.log.Debug("acp: answering the agent", "method", f.Method, "err", err)
	}
}

// call sends a request and waits for its response, the agent going away, or
// ctx.
func (c *rpc) call(ctx context.Context, method string, params, result any) error {
	return c.callHook(ctx, method, params, result, nil)
}

// callHook is call with sent(id) run just before the request is written.
func (c *rpc) callHook(ctx context.Context, method string, params, result any, sent func(id int64)) error {
	id, ch, err := c.begin(method, params, sent)
	if err != nil {
		return err
	}
	return c.await(ctx, method, id, ch, result)
}

// begin registers and writes a request; await collects its response.
// Split so a caller can decide atomically whether to send at all (a turn
// cancelled before its prompt went out never sends it).
func (c *rpc) begin(method string, params any, sent func(id int64)) (int64, chan frame, error) {
	id := c.nextID.Add(1)
	if sent != nil {
		sent(id)
	}
	ch := make(chan frame, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	req := struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", id, method, params}
	if err := c.write(req); err != nil {
		c.forget(id)
		return 0, nil, err
	}
	return id, ch, nil
}

func (c *rpc) await(ctx context.Context, method string, id int64, ch chan frame, result any) error {
	defer c.forget(id)
	select {
	case f := <-ch:
		if f.Error != nil {
			return f.Error
		}
		if result != nil && len(f.Result) > 0 {
			if err := json.Unmarshal(f.Result, result); err != nil {
				return fmt.Errorf("acp: decoding %s result: %w", method, err)
			}
		}
		if c.onResult != nil && len(f.Result) > 0 {
			c.onResult(method, f.Result)
		}
		return nil
	case <-c.ctx.Done():
		return fmt.Errorf("%s: %w", method, errClosed)
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *rpc) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// notify sends a notification.
func (c *rpc) notify(method string, params any) error {
	return c.write(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
}

func (c *rpc) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("acp: encoding: %w", err)
	}
	b = append(b, '\n')
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.w.Write(b); err != nil {
		return fmt.Errorf("acp: %w: %w", errWrite, err)
	}
	return nil
}

var errLineTooLong = errors.New("line too long")

// readLine returns the next line without its newline. A line longer than
// max is consumed and reported as errLineTooLong without being kept.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong && err == nil {
			return nil, errLineTooLong
		}
		return bytes.TrimRight(buf, "\r\n"), err
	}
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
