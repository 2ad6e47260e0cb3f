package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/peercred"
)

// SocketName is the local API socket's file name in the runtime dir.
const SocketName = "api.sock"

// ListenLocal opens the local API socket at path: its directory this
// user's and 0700 (paths.EnsureRuntimeDir), the socket 0600, and every accepted connection checked to come from this
// user (SO_PEERCRED on Linux). A stale socket left by a dead process is
// replaced; the caller must hold the supervisor lock, so no live server
// can own it.
func ListenLocal(path string) (net.Listener, error) {
	// A runtime folder another user created first, or one others can
	// open, is refused: whoever owns it could take the socket's place.
	if err := paths.EnsureRuntimeDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("local API: %w", err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("local API: remove stale socket: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("local API: listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("local API: chmod %s: %w", path, err)
	}
	return &peerListener{Listener: ln, log: slog.Default()}, nil
}

// peerListener drops connections from other users before HTTP sees them.
type peerListener struct {
	net.Listener
	log *slog.Logger
}

func (l *peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if err := peercred.Check(c); err != nil {
			l.log.Warn("local API: refused a connection", "err", err)
			c.Close()
			continue
		}
		return c, nil
	}
}

// ServeLocal serves h on the local socket until ctx ends. Requests on it
// are trusted: the peer is this user, so no token is needed.
func ServeLocal(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(WithTrusted(r.Context())))
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	return serveUntil(ctx, srv, ln)
}

// serveUntil runs srv on ln and shuts it down (5 s grace, then closes
// streams) when ctx ends.
func serveUntil(ctx context.Context, srv *http.Server, ln net.Listener) error {
	// Requests inherit ctx, so open event streams end when the server
	// stops instead of holding Shutdown for its whole grace period.
	srv.BaseContext = func(net.Listener) context.Context { return ctx }
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	<-done
	return nil
}

// ServeTCP serves h on ln (serve mode) until ctx ends. Requests are
// untrusted: token, Host and Origin checks apply. There is no read or
// write timeout: either would cut long SSE streams (a read deadline
// cancels the request's context); headers are bounded in time, bodies in
// size and time (limits.go), refused requests closed unread, connections
// capped per client, and each SSE flush has its own write deadline.
func ServeTCP(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	return serveUntil(ctx, srv, LimitPerClient(ln, MaxConnsPerClient, nil))
}

// StartLocal serves h on the data dir's local API socket (SocketPath) in
// the background, for the process that holds the supervisor lock (the
// desktop app or `serve`). stop shuts it down and waits.
func StartLocal(ctx context.Context, dataDir string, h http.Handler) (stop func(), err error) {
	ln, err := ListenLocal(SocketPath(dataDir))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := ServeLocal(ctx, ln, h); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Default().Warn("local API stopped", "err", err)
		}
	}()
	return func() { cancel(); <-done }, nil
}
