// Package apihost serves a data dir's API from whichever process asks: as
// the data dir's supervisor (journal, shims, service, the local API
// socket, notifications) when no other process is, or as a proxy to the
// one that is — and then it takes over as supervisor as soon as that one
// goes away, so runs are never left without anyone to adopt, fence or
// start them. The resident core (core/) and `hermesdesk serve` both run
// one, so either outlives the other (docs/ARCHITECTURE.md §Processes).
package apihost

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/notify"
	"github.com/hermesdesk/hermesdesk/backend/remote"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
	"github.com/hermesdesk/hermesdesk/backend/watchbus"
)

// Options configure Open.
type Options struct {
	DataDir string
	// Executable runs shims and the demo agent (default: this program).
	Executable string
	Log        *slog.Logger
	// API configures the handler, direct or proxy alike: serve's token,
	// host names and web app; the core's is empty (no TCP).
	API httpapi.Config
	// OpenSession shows a session when a notification is clicked (nil: a
	// click only dismisses).
	OpenSession func(sessionID string)
	// Watch gets every message of the watch bus of whatever serves the API,
	// from one goroutine (nil: none). A new stream starts with a snapshot.
	Watch func(run.WatchMessage)
	// TookOver is called once this process became the supervisor after
	// proxying to another one.
	TookOver func()
}

// Host is the API of one data dir in this process. Its ServeHTTP always
// reaches whoever serves it now.
type Host struct {
	o      Options
	log    *slog.Logger
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	handler atomic.Pointer[httpapi.Handler]

	mu        sync.Mutex
	token     *string       // SetToken's, for handlers made after it
	stack     *stack.Stack  // nil while proxying
	stopLocal func()        // the local socket
	stopNote  func()        // the notifier (backend/notify), beside the supervisor
	remote    *remote.Hosts // other hosts' cores followed (§Remote cores); nil while proxying
	keepWarm  bool          // Close leaves idle warm agents (a handover: the next core adopts them)

	kick chan struct{} // proxying: the watch bus broke, the supervisor may be gone
}

// Open becomes the data dir's supervisor (re-adopting live runs and
// closing dead ones) or, if another process already is, proxies to it
// until it goes away.
func Open(ctx context.Context, o Options) (*Host, error) {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Watch == nil {
		o.Watch = func(run.WatchMessage) {}
	}
	ctx, cancel := context.WithCancel(ctx)
	h := &Host{o: o, log: o.Log, ctx: ctx, cancel: cancel, kick: make(chan struct{}, 1)}
	err := h.becomeSupervisor()
	switch {
	case errors.Is(err, stack.ErrAlreadyRunning):
		h.log.Info("another Hermes Desk process is this data dir's supervisor; using its local API until it goes away")
		h.mu.Lock()
		h.handler.Store(httpapi.NewProxy(httpapi.SocketPath(o.DataDir), h.configLocked()))
		h.mu.Unlock()
		h.wg.Add(1)
		go h.takeOverWhenFree()
	case err != nil:
		cancel()
		return nil, err
	}
	h.wg.Add(1)
	go h.followBus()
	return h, nil
}

// configLocked is the handler configuration with the current token.
func (h *Host) configLocked() httpapi.Config {
	cfg := h.o.API
	if h.token != nil {
		cfg.Token = *h.token
	}
	return cfg
}

// becomeSupervisor opens the stack and serves it; stack.ErrAlreadyRunning
// when another process holds the data dir.
func (h *Host) becomeSupervisor() error {
	st, err := stack.Open(h.ctx, stack.Options{DataDir: h.o.DataDir, Executable: h.o.Executable, Log: h.log.With("component", "backend")})
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.remote = openRemote(h.ctx, st, h.log)
	cfg := h.configLocked()
	cfg.Hosts = remote.NewProxy(h.remote.Link, h.log) // /api/hosts/{host}/… (§Remote cores)
	api := httpapi.New(st.Service, cfg)
	h.handler.Store(api)
	h.stack = st
	h.mu.Unlock()
	// The local socket trusts by uid, never by token: the window, the CLI
	// and a serve beside this process all come through it.
	stop, err := httpapi.StartLocal(h.ctx, h.o.DataDir, api)
	if err != nil {
		// Nobody else can reach the runs now; this process still can.
		h.log.Error("local API socket unavailable", "err", err)
		stop = nil
	}
	// Notifications come from whoever supervises the runs. Started last:
	// it dials the session bus, and the API must not wait for that.
	stopNote := notify.Start(h.ctx, st.Service, h.o.OpenSession, h.log)
	h.mu.Lock()
	h.stopLocal, h.stopNote = stop, stopNote
	h.mu.Unlock()
	return nil
}

// takeOverWhenFree tries to become the supervisor each time the proxied
// watch bus breaks (the supervisor holding the data dir went away): no
// timer (docs/ARCHITECTURE.md §The watch bus).
func (h *Host) takeOverWhenFree() {
	defer h.wg.Done()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-h.kick:
		}
		switch err := h.becomeSupervisor(); {
		case err == nil:
			h.log.Info("the data dir's supervisor went away; this process is now its supervisor")
			if h.o.TookOver != nil {
				h.o.TookOver()
			}
			return
		case !errors.Is(err, stack.ErrAlreadyRunning) && h.ctx.Err() == nil:
			h.log.Warn("taking over as supervisor", "err", err)
		}
	}
}

// Handler is whatever serves the API now: the service in this process,
// or the proxy to the supervisor. In-process callers (Do, Watch) use it.
func (h *Host) Handler() *httpapi.Handler { return h.handler.Load() }

// ServeHTTP serves a request through the current handler, so a listener
// opened while proxying serves this process's own service after a take-over.
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.Handler().ServeHTTP(w, r) }

var _ http.Handler = (*Host)(nil)

// SetToken replaces the bearer token, now and for a handler made after a
// take-over.
func (h *Host) SetToken(tok string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.token = &tok
	h.Handler().SetToken(tok)
}

// Remote is the supervisor's follower of other hosts' cores, where
// backend/hosts hands over each host's link (Follow, Forget); nil while
// this process proxies to another supervisor (docs/ARCHITECTURE.md
// §Remote cores).
func (h *Host) Remote() *remote.Hosts {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.remote
}

// Supervising reports whether this process is the data dir's supervisor.
func (h *Host) Supervising() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stack != nil
}

// followBus reads the watch bus of whatever serves the API (this
// process's service, or the supervisor it proxies to) for Options.Watch,
// and follows it again after a goodbye — through the new handler once
// this process took over. A broken proxied bus is what wakes the take-over
// (docs/ARCHITECTURE.md §The watch bus). Nothing polls.
func (h *Host) followBus() {
	defer h.wg.Done()
	// A source that asks for the current handler on every reconnect, so
	// the follower reads this process's own bus once it took over.
	src := watchbus.SourceFunc(func(ctx context.Context) (<-chan run.WatchMessage, error) {
		return h.Handler().Watch(ctx)
	})
	watchbus.Follow(h.ctx, src, h.o.Watch, watchbus.Options{Log: h.o.Log, Ended: func(error) {
		if !h.Supervising() {
			select {
			case h.kick <- struct{}{}:
			default:
			}
		}
	}})
}

// Close stops serving; the runs go on in their shims and are re-adopted
// by the next supervisor (a proxying process beside this one takes over
// at once). On a quit, idle warm agents are closed: an agent waiting for
// a next message nobody can send would only hold memory.
func (h *Host) Close() error {
	h.cancel()
	h.wg.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopNote != nil {
		h.stopNote()
	}
	if h.stopLocal != nil {
		h.stopLocal()
	}
	if h.stack == nil {
		return nil
	}
	h.remote.Close() // before the journal its cursors go to
	if h.keepWarm {
		return h.stack.CloseLeavingWarm()
	}
	return h.stack.Close()
}

// HandingOver makes Close leave idle warm agents for the next process.
func (h *Host) HandingOver() {
	h.mu.Lock()
	h.keepWarm = true
	h.mu.Unlock()
}
