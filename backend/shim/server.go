package shim

import (
	"bufio"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/peercred"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// handshakeTimeout bounds how long a connection may stay silent before its
// first request: a client that connects and says nothing is not waited on.
const handshakeTimeout = 10 * time.Second

// controller answers control requests; the runner implements it.
type controller interface {
	handle(ctx context.Context, req control.Request) control.Response
}

// hubFor names the hub of the run a request is about: the current run's
// for runID "" or its id, nil for any other (an earlier run of a warm shim).
type hubFor func(runID string) *hub

// oneHub serves a single run's hub whatever the request names.
func oneHub(h *hub) hubFor { return func(string) *hub { return h } }

// server is the shim's control socket: peer uid checked, token required,
// JSON lines in both directions.
type server struct {
	ln    net.Listener
	path  string
	token string
	hubs  hubFor
	ctl   controller
	log   *slog.Logger

	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	closing bool // shutdown dropped the connections: drop late ones too
}

// listen creates the socket (0600 inside a 0700 dir).
func listen(path, token string, hubs hubFor, ctl controller, log *slog.Logger) (*server, error) {
	os.Remove(path) // a stale socket of a dead shim for this name
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	return &server{ln: ln, path: path, token: token, hubs: hubs, ctl: ctl, log: log, conns: map[net.Conn]struct{}{}}, nil
}

// start accepts connections in the background. The accept loop holds one
// count of wg so that no connection's Add can race shutdown's Wait at zero.
func (s *server) start(ctx context.Context) {
	s.wg.Add(1)
	go s.serve(ctx)
}

func (s *server) serve(ctx context.Context) {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				s.log.Warn("control accept", "err", err)
			}
			return
		}
		s.mu.Lock()
		if s.closing {
			// Accepted just before the listener closed but registered
			// after shutdown's grace dropped the others: shutdown would
			// wait on it for as long as its client keeps talking.
			s.mu.Unlock()
			c.Close()
			continue
		}
		s.conns[c] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
				c.Close()
			}()
			s.serveConn(ctx, c)
		}()
	}
}

// shutdown stops accepting, gives subscribers up to grace to drain what the
// hub already closed, then drops every connection.
func (s *server) shutdown(grace time.Duration) {
	s.ln.Close()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		s.mu.Lock()
		s.closing = true
		for c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		<-done
	}
	os.Remove(s.path)
}

func writeLine(c net.Conn, r control.Response) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	c.SetWriteDeadline(time.Now().Add(handshakeTimeout))
	_, err = c.Write(append(data, '\n'))
	return err
}

func (s *server) serveConn(ctx context.Context, c net.Conn) {
	if err := peercred.Check(c); err != nil {
		s.log.Warn("control connection refused", "err", err)
		writeLine(c, control.Response{Code: control.CodeUnauthorized, Error: "peer not allowed"})
		return
	}
	// Requests are a few hundred bytes; the scanner grows for a longer one.
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 4<<10), 1<<20)
	for {
		c.SetReadDeadline(time.Now().Add(handshakeTimeout))
		if !sc.Scan() {
			return
		}
		req, perr := control.ParseRequest(sc.Bytes())
		if errors.Is(perr, control.ErrMalformed) {
			writeLine(c, control.Response{Code: control.CodeBadRequest, Error: "malformed request"})
			return
		}
		if subtle.ConstantTimeCompare([]byte(req.Token), []byte(s.token)) != 1 {
			writeLine(c, control.Response{ID: req.ID, Code: control.CodeUnauthorized, Error: "bad token"})
			return
		}
		if perr != nil {
			if writeLine(c, control.Response{ID: req.ID, Code: control.CodeBadRequest, Error: perr.Error()}) != nil {
				return
			}
			continue
		}
		if req.Op == control.OpSubscribe {
			c.SetReadDeadline(time.Time{})
			s.stream(c, req)
			return
		}
		resp := s.ctl.handle(ctx, req)
		resp.ID = req.ID
		if err := writeLine(c, resp); err != nil {
			return
		}
	}
}

// stream pushes committed events to one subscriber until the run ends, the
// client goes away or it falls behind.
func (s *server) stream(c net.Conn, req control.Request) {
	h := s.hubs(req.RunID)
	if h == nil {
		writeLine(c, control.Response{ID: req.ID, Code: control.CodeEnded, Error: "run ended"})
		return
	}
	sub, last, ok := h.add(req.AfterSeq)
	if !ok {
		writeLine(c, control.Response{ID: req.ID, Subscribed: &control.Subscribed{LastSeq: last}})
		writeLine(c, control.Response{Code: control.CodeEnded, Error: "run ended"})
		return
	}
	defer h.remove(sub)
	if err := writeLine(c, control.Response{ID: req.ID, Subscribed: &control.Subscribed{LastSeq: last}}); err != nil {
		return
	}
	// A reader that stops reading fills its socket buffer, then our write
	// deadline fires; a closed client shows up as a failed write. Watch
	// the read side too so an idle run notices a departed client.
	gone := make(chan struct{})
	go func() {
		var b [1]byte
		c.Read(b[:]) // blocks until the client closes (it never writes again)
		close(gone)
	}()
	bw := bufio.NewWriterSize(c, 64<<10)
	enc := json.NewEncoder(bw)
	var batch []run.Event
	for {
		select {
		case <-sub.Ready():
		case <-gone:
			return
		}
		evs, ended := h.take(sub, batch)
		for i := range evs {
			c.SetWriteDeadline(time.Now().Add(handshakeTimeout))
			if err := enc.Encode(control.Response{Event: &evs[i]}); err != nil {
				return
			}
		}
		if ended {
			code, msg := control.CodeEnded, "run ended"
			if h.isDropped(sub) {
				code, msg = control.CodeDropped, "subscriber fell behind; resume from the journal"
			}
			// The last event's deadline may be long past (an idle
			// run): give the goodbye its own.
			c.SetWriteDeadline(time.Now().Add(handshakeTimeout))
			enc.Encode(control.Response{Code: code, Error: msg})
			bw.Flush()
			return
		}
		// One flush per batch taken: batches under load, no added
		// latency when idle.
		if err := bw.Flush(); err != nil {
			return
		}
		batch = evs
	}
}
