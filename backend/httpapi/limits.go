package httpapi

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Limits of serve mode against slow or many connections
// (docs/ARCHITECTURE.md §Security, serve mode). Headers must arrive within
// ReadHeaderTimeout (ServeTCP); a body within Config.BodyTimeout; a refused
// request's connection is closed at once, its body never read.
const (
	// DefaultBodyTimeout bounds the time a request body may take to arrive.
	DefaultBodyTimeout = 30 * time.Second
	// MaxConnsPerClient caps the open TCP connections of one client
	// address; more are closed as they are accepted. A browser keeps a
	// few, plus one per event stream.
	MaxConnsPerClient = 64
)

// refuse answers an untrusted request that will not be served and closes
// its connection without reading its body: waiting for a slow sender's
// body would let anyone without the token hold connections open.
func refuse(w http.ResponseWriter, status int, code service.Code, msg string) {
	w.Header().Set("Connection", "close")
	writeError(w, status, code, msg)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	_ = rc.SetReadDeadline(time.Now()) // the server's drain of the body fails at once
}

// deadlineBody is an untrusted request's body: reads fail once its
// deadline has passed, and reaching its end lifts the deadline so an
// event stream or a slow handler is not cut later.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	once sync.Once
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(func() { _ = b.rc.SetReadDeadline(time.Time{}) })
	}
	return n, err
}

// withBodyDeadline arms the body deadline of r, when it has a body.
func (h *Handler) withBodyDeadline(w http.ResponseWriter, r *http.Request) *http.Request {
	if r.Body == nil || r.Body == http.NoBody || (r.ContentLength == 0 && len(r.TransferEncoding) == 0) {
		return r
	}
	d := h.cfg.BodyTimeout
	if d <= 0 {
		d = DefaultBodyTimeout
	}
	if r.URL.Path == "/api/uploads" && d < UploadBodyTimeout {
		d = UploadBodyTimeout // a file, not a JSON request
	}
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Now().Add(d)); err != nil {
		return r // not a real connection (tests' recorders)
	}
	r2 := r.Clone(r.Context())
	r2.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
	return r2
}

// isTimeout reports a read that hit its deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// LimitPerClient wraps ln so that one client address holds at most max
// connections at a time; the others are closed as soon as accepted.
func LimitPerClient(ln net.Listener, max int, log *slog.Logger) net.Listener {
	if log == nil {
		log = slog.Default()
	}
	return &perClient{Listener: ln, max: max, open: map[string]int{}, log: log}
}

type perClient struct {
	net.Listener
	max  int
	log  *slog.Logger
	mu   sync.Mutex
	open map[string]int
	warn time.Time
}

func (l *perClient) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := clientHost(c.RemoteAddr())
		l.mu.Lock()
		if l.open[host] >= l.max {
			quiet := time.Since(l.warn) < 10*time.Second
			if !quiet {
				l.warn = time.Now()
			}
			l.mu.Unlock()
			if !quiet {
				l.log.Warn("httpapi: too many connections from one client; closing the newest", "client", host, "max", l.max)
			}
			c.Close()
			continue
		}
		l.open[host]++
		l.mu.Unlock()
		return &countedConn{Conn: c, release: func() { l.release(host) }}, nil
	}
}

func (l *perClient) release(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[host]--; l.open[host] <= 0 {
		delete(l.open, host)
	}
}

func clientHost(a net.Addr) string {
	if a == nil {
		return ""
	}
	if h, _, err := net.SplitHostPort(a.String()); err == nil {
		return h
	}
	return a.String()
}

type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
