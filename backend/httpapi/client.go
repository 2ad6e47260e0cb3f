package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// ErrNotRunning: nothing serves the local API of this data dir.
var ErrNotRunning = errors.New("Hermes Desk is not running")

// APIError is a refusal from the API: its status, stable code and safe
// message.
type APIError struct {
	Status  int
	Code    service.Code
	Message string
}

func (e *APIError) Error() string { return e.Message }

// Client calls the API: over the local socket (the CLI) or over TCP with
// a token (tests, scripts).
type Client struct {
	base  string
	token string
	hc    *http.Client
}

// NewLocalClient talks to the supervisor's socket; no token is needed.
func NewLocalClient(socket string) *Client {
	return &Client{base: "http://hermesdesk", hc: &http.Client{Transport: unixTransport(socket)}}
}

// NewClient talks to base (http://host:port) with a bearer token.
func NewClient(base, token string) *Client {
	return &Client{base: strings.TrimSuffix(base, "/"), token: token, hc: &http.Client{}}
}

func (c *Client) request(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// Call sends in (if not nil) as JSON and decodes the answer into out (if
// not nil). Refusals come back as *APIError; an absent server as
// ErrNotRunning.
func (c *Client) Call(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := c.request(ctx, method, path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	res, err := c.hc.Do(req)
	if err != nil {
		return connErr(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("read answer: %w", err)
	}
	if res.StatusCode >= 400 {
		return apiError(res.StatusCode, b)
	}
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("decode answer of %s %s: %w", method, path, err)
		}
	}
	return nil
}

func apiError(status int, b []byte) error {
	var e errorBody
	if json.Unmarshal(b, &e) != nil || e.Error.Message == "" {
		return &APIError{Status: status, Code: service.CodeInternal, Message: http.StatusText(status)}
	}
	return &APIError{Status: status, Code: e.Error.Code, Message: e.Error.Message}
}

// connErr turns "no socket / nobody listening" into ErrNotRunning.
// A server of another user comes back as ErrForeignServer alone.
func connErr(err error) error {
	if errors.Is(err, ErrForeignServer) {
		return fmt.Errorf("%w (%s)", ErrForeignServer, SocketHint)
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" &&
		(errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)) {
		return fmt.Errorf("%w: %w", ErrNotRunning, err)
	}
	return err
}

// SocketHint says what to do about a foreign server on the socket.
const SocketHint = "another user may have created the socket folder first; remove it or set XDG_RUNTIME_DIR"

// Exchange sends one request of the desktop window's webview as it came
// (its body as is; events as JSON pages, not SSE) and returns the answer's
// status and body, whatever the status: the window passes them on. An
// error means no answer came (ErrNotRunning, ErrForeignServer, a broken
// connection). Only /api/ routes are asked.
func (c *Client) Exchange(ctx context.Context, method, path, body string) (status int, answer string, err error) {
	if !strings.HasPrefix(path, "/api/") {
		status, answer = errorString(http.StatusNotFound, service.CodeNotFound, "only /api/ routes are served to the window")
		return status, answer, nil
	}
	var in io.Reader
	if body != "" {
		in = strings.NewReader(body)
	}
	req, err := c.request(ctx, strings.ToUpper(method), path, in)
	if err != nil {
		status, answer = errorString(http.StatusBadRequest, service.CodeBadRequest, "malformed request line")
		return status, answer, nil
	}
	req.Header.Set("Accept", "application/json")
	res, err := c.hc.Do(req)
	if err != nil {
		return 0, "", connErr(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return 0, "", fmt.Errorf("read the answer to %s %s: %w", method, path, err)
	}
	return res.StatusCode, string(b), nil
}

// Ping reports whether the server answers plain health.
func (c *Client) Ping(ctx context.Context) error {
	req, err := c.request(ctx, "GET", "/api/health", nil)
	if err != nil {
		return err
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return connErr(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s", res.Status)
	}
	return nil
}

// Follow streams a run's events after `after` over SSE to fn, in order,
// until the run's `done` (returns nil), ctx ends or fn fails. A dropped
// or cut stream is resumed from the last seq with Last-Event-ID, so fn
// sees every event exactly once.
func (c *Client) Follow(ctx context.Context, runID string, after int64, fn func(run.Event) error) error {
	last := after
	failures := 0
	for {
		done, progressed, err := c.followOnce(ctx, runID, last, func(ev run.Event) error {
			if ev.Seq <= last {
				return nil
			}
			if err := fn(ev); err != nil {
				return err
			}
			last = ev.Seq
			return nil
		})
		if done || ctx.Err() != nil {
			return ctx.Err()
		}
		var apiErr *APIError
		var cbErr callbackError
		switch {
		case errors.As(err, &cbErr):
			return cbErr.err
		case errors.As(err, &apiErr), errors.Is(err, ErrNotRunning):
			return err
		}
		if progressed {
			failures = 0
		} else if failures++; failures > 5 {
			return fmt.Errorf("event stream keeps failing: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(failures) * 200 * time.Millisecond):
		}
	}
}

// callbackError carries fn's own error out of followOnce.
type callbackError struct{ err error }

func (e callbackError) Error() string { return e.err.Error() }

// followOnce reads one SSE connection. A callbackError means fn failed;
// an *APIError is a refusal; anything else a broken connection.
func (c *Client) followOnce(ctx context.Context, runID string, after int64, fn func(run.Event) error) (done, progressed bool, err error) {
	req, err := c.request(ctx, "GET", "/api/runs/"+runID+"/events", nil)
	if err != nil {
		return false, false, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Last-Event-ID", run.EventID(runID, after))
	res, err := c.hc.Do(req)
	if err != nil {
		return false, false, connErr(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		return false, false, apiError(res.StatusCode, b)
	}
	br := bufio.NewReaderSize(res.Body, 64<<10)
	var data []byte
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A longer line than the buffer: gather it whole.
			rest, err2 := br.ReadBytes('\n')
			line, err = append(append([]byte(nil), line...), rest...), err2
		}
		if err != nil {
			return false, progressed, err
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if data == nil {
				continue
			}
			var ev run.Event
			if json.Unmarshal(data, &ev) == nil && ev.RunID == runID && ev.Seq > 0 {
				if err := fn(ev); err != nil {
					return false, progressed, callbackError{err}
				}
				progressed = true
				if ev.Terminal {
					return true, true, nil
				}
			}
			data = nil
		case bytes.HasPrefix(line, []byte("data:")):
			data = append(data[:0:0], bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))...)
		}
	}
}
