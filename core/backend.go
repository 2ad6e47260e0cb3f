package core

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/notify"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
)

// backend is the core's side of the API: the data dir's supervisor
// (journal, shims, service, the local API socket) when no other process
// is, or a proxy to the one that already runs (`hermesdesk serve` on the
// same data dir) — and then it takes over as supervisor as soon as that
// one goes away, so runs are never left without anyone to adopt, fence or
// start them (docs/ARCHITECTURE.md §Processes).
type backend struct {
	dataDir string
	log     *slog.Logger
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	// openSession shows the window on a session (a notification's click).
	openSession func(sessionID string)

	handler atomic.Pointer[httpapi.Handler]

	mu        sync.Mutex
	stack     *stack.Stack // nil while proxying
	stopLocal func()       // the local socket
	stopNote  func()       // the notifier (backend/notify), beside the supervisor
	keepWarm  bool         // Close leaves idle warm agents (a handover: the next core adopts them)

	kick chan struct{} // proxying: the watch bus broke, the supervisor may be gone
}

// openBackend becomes the data dir's supervisor (re-adopting live runs and
// closing dead ones) or, if another process already is, proxies to it.
func openBackend(ctx context.Context, dataDir string, log *slog.Logger, watch func(run.WatchMessage),
	openSession func(string)) (*backend, error) {
	ctx, cancel := context.WithCancel(ctx)
	b := &backend{dataDir: dataDir, log: log, ctx: ctx, cancel: cancel, kick: make(chan struct{}, 1), openSession: openSession}
	err := b.becomeSupervisor()
	switch {
	case errors.Is(err, stack.ErrAlreadyRunning):
		log.Info("another Hermes Desk process is this data dir's supervisor; using its local API until it goes away")
		b.handler.Store(httpapi.NewProxy(httpapi.SocketPath(dataDir), httpapi.Config{Log: log}))
		b.wg.Add(1)
		go b.takeOverWhenFree()
	case err != nil:
		cancel()
		return nil, err
	}
	b.wg.Add(1)
	go b.followBus(watch)
	return b, nil
}

// becomeSupervisor opens the stack and serves it; stack.ErrAlreadyRunning
// when another process holds the data dir.
func (b *backend) becomeSupervisor() error {
	st, err := stack.Open(b.ctx, stack.Options{DataDir: b.dataDir, Log: b.log.With("component", "backend")})
	if err != nil {
		return err
	}
	// No token: TCP is refused; the in-process path and the 0600 socket are trusted.
	h := httpapi.New(st.Service, httpapi.Config{Log: b.log})
	stop, err := httpapi.StartLocal(b.ctx, b.dataDir, h)
	if err != nil {
		// Nobody else can reach the runs now: the window, the CLI and serve
		// all come through this socket.
		b.log.Error("local API socket unavailable", "err", err)
		stop = nil
	}
	b.mu.Lock()
	b.stack, b.stopLocal = st, stop
	b.mu.Unlock()
	b.handler.Store(h)
	// Notifications come from whoever supervises the runs (the core here,
	// `serve` otherwise); a click opens the session in the window. Started
	// last: it dials the session bus, and the API must not wait for that.
	stopNote := notify.Start(b.ctx, st.Service, b.openSession, b.log)
	b.mu.Lock()
	b.stopNote = stopNote
	b.mu.Unlock()
	return nil
}

// takeOverWhenFree tries to become the supervisor each time the proxied
// watch bus breaks (the supervisor holding the data dir went away): no
// timer (docs/ARCHITECTURE.md "The watch bus").
func (b *backend) takeOverWhenFree() {
	defer b.wg.Done()
	for {
		select {
		case <-b.ctx.Done():
			return
		case <-b.kick:
		}
		switch err := b.becomeSupervisor(); {
		case err == nil:
			b.log.Info("the data dir's supervisor went away; this app is now its supervisor")
			return
		case !errors.Is(err, stack.ErrAlreadyRunning) && b.ctx.Err() == nil:
			b.log.Warn("taking over as supervisor", "err", err)
		}
	}
}

// Handler serves API requests in-process.
func (b *backend) Handler() *httpapi.Handler { return b.handler.Load() }

// followBus reads the watch bus of whatever serves the API (this core's
// service, or the supervisor it proxies to) for the tray's model,
// and follows it again after a goodbye — through the new handler once this
// core took over (docs/ARCHITECTURE.md "The watch bus"). Nothing polls.
func (b *backend) followBus(watch func(run.WatchMessage)) {
	defer b.wg.Done()
	backoff := 100 * time.Millisecond
	for b.ctx.Err() == nil {
		ch, err := b.Handler().Watch(b.ctx)
		if err == nil {
			// The tray model (backend/traystate) folds every message; a
			// new stream starts with a snapshot that replaces its state.
			for m := range ch {
				watch(m)
			}
			backoff = 100 * time.Millisecond
		}
		b.mu.Lock()
		proxying := b.stack == nil
		b.mu.Unlock()
		if proxying {
			select {
			case b.kick <- struct{}{}:
			default:
			}
		}
		select {
		case <-b.ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// retireOnQuit bounds how long quitting waits for idle warm agents to
// agree to close (each answers in milliseconds).
const retireOnQuit = 3 * time.Second

// Close stops serving; the runs go on in their shims and are re-adopted at
// the next start. On a quit, idle warm agents are closed: an agent waiting
// for a next message nobody can send would only hold memory. On a
// handover they stay, for the next core to adopt.
func (b *backend) Close() error {
	b.cancel()
	b.wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopNote != nil {
		b.stopNote()
	}
	if b.stopLocal != nil {
		b.stopLocal()
	}
	if b.stack == nil {
		return nil
	}
	if !b.keepWarm {
		ctx, cancel := context.WithTimeout(context.Background(), retireOnQuit)
		n := b.stack.Supervisor.RetireWarm(ctx, "")
		cancel()
		b.log.Info("closed idle warm agents on quit", "count", n)
	}
	return b.stack.Close()
}

// handingOver makes Close leave idle warm agents for the next core.
func (b *backend) handingOver() {
	b.mu.Lock()
	b.keepWarm = true
	b.mu.Unlock()
}
