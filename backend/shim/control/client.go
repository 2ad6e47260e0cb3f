package control

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/peercred"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Sentinel errors of the client.
var (
	// ErrUnreachable: the shim's socket did not answer (it is gone or stuck).
	ErrUnreachable = newClassed("control: shim unreachable", errdefs.ErrUnavailable)
	// ErrRejected: the shim refused the request (bad token, bad request).
	ErrRejected = errors.New("control: request rejected")
	// ErrDropped: a subscription fell behind and was dropped by the shim.
	ErrDropped = newClassed("control: subscription dropped", classOf(CodeDropped))
	// ErrEnded: the shim closed the subscription because its run is over.
	ErrEnded = newClassed("control: run ended", classOf(CodeEnded))
	// ErrNotWarm: a warm shim refused OpNextRun or OpStop.
	ErrNotWarm = newClassed("control: shim is not warm", classOf(CodeNotWarm))
)

// maxLine bounds one protocol line; events are small, but a tool's output
// chunk can be large.
const maxLine = 16 << 20

var nextID atomic.Int64

func dial(ctx context.Context, b Bootstrap) (net.Conn, error) {
	// The token, and a next run's spec with the agent's keys, go only to a
	// process of this user, wherever a stale or forged file points.
	c, err := peercred.Dial(ctx, b.Socket)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	return c, nil
}

func send(c net.Conn, req Request) error {
	data, err := json.Marshal(req)
	if err != nil {
		return err
	}
	_, err = c.Write(append(data, '\n'))
	return err
}

func newScanner(c net.Conn) *bufio.Scanner {
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	return sc
}

func readResponse(sc *bufio.Scanner) (Response, error) {
	if !sc.Scan() {
		err := sc.Err()
		if err == nil {
			err = errors.New("connection closed")
		}
		return Response{}, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	var r Response
	if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
		return Response{}, fmt.Errorf("%w: bad answer: %w", ErrUnreachable, err)
	}
	return r, nil
}

func responseErr(r Response) error {
	switch r.Code {
	case "":
		return nil
	case CodeDropped:
		return ErrDropped
	case CodeEnded:
		return ErrEnded
	case CodeNotWarm:
		return fmt.Errorf("%w: %s", ErrNotWarm, r.Error)
	}
	return rejection(r.Code, r.Error)
}

// Call sends one request on a fresh connection and returns the answer. ctx
// bounds the whole exchange (the control call timeout, docs/ARCHITECTURE.md §API).
func Call(ctx context.Context, b Bootstrap, req Request) (Response, error) {
	c, err := dial(ctx, b)
	if err != nil {
		return Response{}, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	req.Token = b.Token
	req.ID = nextID.Add(1)
	if req.RunID == "" {
		req.RunID = b.RunID
	}
	if err := send(c, req); err != nil {
		return Response{}, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	r, err := readResponse(newScanner(c))
	if err != nil {
		return Response{}, err
	}
	return r, responseErr(r)
}

// Subscription is a live event stream from one shim.
type Subscription struct {
	c       net.Conn
	sc      *bufio.Scanner
	LastSeq int64 // from the shim's acknowledgement
}

// Subscribe opens a stream of committed events with seq > after. ctx bounds
// only the handshake; Close ends the stream.
func Subscribe(ctx context.Context, b Bootstrap, after int64) (*Subscription, error) {
	c, err := dial(ctx, b)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Unix(1, 0)) })
	fail := func(err error) (*Subscription, error) {
		stop()
		c.Close()
		return nil, err
	}
	if err := send(c, Request{ID: nextID.Add(1), Token: b.Token, Op: OpSubscribe, AfterSeq: after, RunID: b.RunID}); err != nil {
		return fail(fmt.Errorf("%w: %w", ErrUnreachable, err))
	}
	sc := newScanner(c)
	r, err := readResponse(sc)
	if err != nil {
		return fail(err)
	}
	if err := responseErr(r); err != nil {
		return fail(err)
	}
	if r.Subscribed == nil {
		return fail(fmt.Errorf("%w: no subscription acknowledgement", ErrRejected))
	}
	if !stop() {
		// ctx fired during the handshake and poisoned the deadline.
		return fail(fmt.Errorf("%w: %w", ErrUnreachable, ctx.Err()))
	}
	return &Subscription{c: c, sc: sc, LastSeq: r.Subscribed.LastSeq}, nil
}

// Next blocks for the next event. It returns ErrEnded when the shim closed
// the stream because the run is over, ErrDropped when it fell behind, and
// an error wrapping ErrUnreachable when the connection broke.
func (s *Subscription) Next() (run.Event, error) {
	r, err := readResponse(s.sc)
	if err != nil {
		return run.Event{}, err
	}
	if err := responseErr(r); err != nil {
		return run.Event{}, err
	}
	if r.Event == nil {
		return run.Event{}, fmt.Errorf("%w: line without an event", ErrUnreachable)
	}
	return *r.Event, nil
}

// Close ends the subscription; Next then returns an error.
func (s *Subscription) Close() error { return s.c.Close() }
