package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
)

// backend is the app's side of the API: the data dir's supervisor (journal,
// shims, service) when this process is the first, or a proxy to the one
// that already runs (`hermesdesk serve` on the same data dir). The window
// reaches it through Desktop.Request and run:doorbell events; the CLI and
// the tray through the local socket.
type backend struct {
	handler *httpapi.Handler
	stack   *stack.Stack // nil when proxying
	stop    func()       // local socket
	cancel  context.CancelFunc
}

// runningPoll is how often the tray's count of active runs is refreshed.
const runningPoll = 2 * time.Second

// openBackend becomes the data dir's supervisor (re-adopting live runs and
// closing dead ones) or, if another process already is, proxies to it.
func openBackend(ctx context.Context, dataDir string, log *slog.Logger,
	ring func(runID string, seq int64), running func(n int)) (*backend, error) {
	ctx, cancel := context.WithCancel(ctx)
	b := &backend{cancel: cancel}
	st, err := stack.Open(ctx, stack.Options{DataDir: dataDir, Log: log.With("component", "backend")})
	switch {
	case errors.Is(err, stack.ErrAlreadyRunning):
		log.Info("another Hermes Desk process is this data dir's supervisor; using its local API")
		b.handler = httpapi.NewProxy(httpapi.SocketPath(dataDir), httpapi.Config{Log: log})
	case err != nil:
		cancel()
		return nil, err
	default:
		b.stack = st
		// No token: TCP is refused; the in-process path and the 0600 socket are trusted.
		b.handler = httpapi.New(st.Service, httpapi.Config{Log: log})
		stop, err := httpapi.StartLocal(ctx, dataDir, b.handler)
		if err != nil {
			// The window still works; only the CLI and tray cannot reach us.
			log.Warn("local API socket unavailable", "err", err)
		} else {
			b.stop = stop
		}
	}
	go b.handler.Doorbells(ctx, ring)
	go b.countRunning(ctx, running)
	return b, nil
}

// countRunning keeps the tray's running count current.
func (b *backend) countRunning(ctx context.Context, running func(n int)) {
	t := time.NewTicker(runningPoll)
	defer t.Stop()
	last := -1
	for {
		var active []run.Run
		status, body := b.handler.DoContext(ctx, "GET", "/api/runs?status=active", "")
		if status == 200 && json.Unmarshal([]byte(body), &active) == nil && len(active) != last {
			last = len(active)
			running(last)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Close stops serving; the runs go on in their shims and are re-adopted at
// the next start.
func (b *backend) Close() error {
	b.cancel()
	if b.stop != nil {
		b.stop()
	}
	if b.stack != nil {
		return b.stack.Close()
	}
	return nil
}

// Response is what Desktop.Request returns to the frontend.
type Response struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// backendUnavailable answers requests made before the backend is up or
// after it failed to open.
func backendUnavailable(err error) Response {
	msg := "Hermes Desk is still starting"
	if err != nil {
		msg = fmt.Sprintf("Hermes Desk could not open its journal: %v", err)
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]string{"code": string(service.CodeUnavailable), "message": msg}})
	return Response{Status: 503, Body: string(body)}
}
