//go:build unix

package remote

// The stand-in for a host: a second real core (journal, supervisor, real
// shims and the scripted demo agent) on its own data dir, whose API socket
// the follower reaches only through a unix-socket relay the test owns and
// can cut — what the SSH forward is (docs/ARCHITECTURE.md §Remote cores).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
	"github.com/hermesdesk/hermesdesk/testkit/shimbuild"
)

var shimBin string

func TestMain(m *testing.M) {
	if os.Getenv(childSocketEnv) != "" {
		os.Exit(childFollower())
	}
	dir, err := os.MkdirTemp("", "hd-remote-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shimBin, err = shimbuild.Build(dir, false)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot build the shim host; the remote tests will skip:", err)
		shimBin = ""
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// remoteCore is the "host": a core on its own data dir serving its API
// on its local socket.
type remoteCore struct {
	dataDir string
	socket  string
	client  *httpapi.Client // direct, not through the relay
	stop    func()
}

func startRemoteCore(t testing.TB) *remoteCore {
	t.Helper()
	if shimBin == "" {
		t.Skip("no shim host binary")
	}
	dir, err := os.MkdirTemp("", "hd-remote-")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HERMESDESK_HOME", dir)
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(dir, "rt"))
	ctx, cancel := context.WithCancel(context.Background())
	st, err := stack.Open(ctx, stack.Options{DataDir: dir, Executable: shimBin, Log: quiet})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	stopLocal, err := httpapi.StartLocal(ctx, dir, httpapi.New(st.Service, httpapi.Config{Log: quiet}))
	if err != nil {
		cancel()
		st.Close()
		t.Fatal(err)
	}
	rc := &remoteCore{dataDir: dir, socket: httpapi.SocketPath(dir), client: httpapi.NewLocalClient(httpapi.SocketPath(dir))}
	var once sync.Once
	rc.stop = func() {
		once.Do(func() {
			stopLocal()
			st.Close()
			cancel()
			runprocs.KillAll(dir)
			for i := 0; i < 50 && os.RemoveAll(dir) != nil; i++ {
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
	t.Cleanup(rc.stop)
	return rc
}

// startRun starts message with the demo agent in a new session there.
func (rc *remoteCore) startRun(t testing.TB, message string) run.StartResult {
	t.Helper()
	ctx := context.Background()
	ws := filepath.Join(rc.dataDir, "ws")
	os.MkdirAll(ws, 0o700)
	var p run.Project
	if err := rc.client.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: ws}, &p); err != nil {
		t.Fatal(err)
	}
	var ses run.Session
	if err := rc.client.Call(ctx, "POST", "/api/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"}, &ses); err != nil {
		t.Fatal(err)
	}
	var res run.StartResult
	req := run.StartRequest{SessionID: ses.ID, Message: message, ClientRequestID: service.NewRequestID()}
	if err := rc.client.Call(ctx, "POST", "/api/runs", req, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// finish waits (on the run's own event stream, directly) for the run's
// done and returns its last seq.
func (rc *remoteCore) finish(t testing.TB, runID string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var last int64
	if err := rc.client.Follow(ctx, runID, 0, func(ev run.Event) error { last = ev.Seq; return nil }); err != nil {
		t.Fatalf("the run did not end on the host: %v", err)
	}
	return last
}

// relay is the SSH forward's stand-in: a unix socket whose connections it
// copies to the remote core's socket. Cut closes the listener and every
// connection (the link dropped); Restore listens again and says Up.
type relay struct {
	host, path, target string
	up                 chan struct{}

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
}

func newRelay(t testing.TB, host, target string) *relay {
	t.Helper()
	r := &relay{host: host, path: filepath.Join(t.TempDir(), "fwd.sock"), target: target,
		up: make(chan struct{}, 1), conns: map[net.Conn]bool{}}
	if err := r.Restore(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Cut)
	return r
}

func (r *relay) Host() string        { return r.host }
func (r *relay) Socket() string      { return r.path }
func (r *relay) Up() <-chan struct{} { return r.up }

func (r *relay) Restore() error {
	ln, err := net.Listen("unix", r.path)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.ln = ln
	r.mu.Unlock()
	go r.accept(ln)
	select {
	case r.up <- struct{}{}:
	default:
	}
	return nil
}

func (r *relay) Cut() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ln != nil {
		r.ln.Close()
		r.ln = nil
	}
	for c := range r.conns {
		c.Close()
	}
	clear(r.conns)
	os.Remove(r.path)
}

func (r *relay) accept(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		d, err := net.Dial("unix", r.target)
		if err != nil {
			c.Close()
			continue
		}
		r.mu.Lock()
		if r.ln != ln {
			r.mu.Unlock()
			c.Close()
			d.Close()
			continue
		}
		r.conns[c], r.conns[d] = true, true
		r.mu.Unlock()
		go pipe(c, d)
		go pipe(d, c)
	}
}

func pipe(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
}

// memSink keeps events in memory and counts every seq it was given, so a
// duplicate shows.
type memSink struct {
	mu     sync.Mutex
	seen   map[string]map[int64]int // run → seq → times stored
	stored chan run.Event
}

func newMemSink() *memSink {
	return &memSink{seen: map[string]map[int64]int{}, stored: make(chan run.Event, 1<<14)}
}

func (s *memSink) Cursors(context.Context, string) (map[string]int64, error) { return nil, nil }

func (s *memSink) Store(_ context.Context, _ string, evs []run.Event) error {
	if len(evs) == 0 {
		return errors.New("empty store")
	}
	s.mu.Lock()
	for _, ev := range evs {
		if s.seen[ev.RunID] == nil {
			s.seen[ev.RunID] = map[int64]int{}
		}
		s.seen[ev.RunID][ev.Seq]++
	}
	s.mu.Unlock()
	for _, ev := range evs {
		s.stored <- ev
	}
	return nil
}

// exactlyOnce fails unless seen holds 1…last once each and nothing else.
func exactlyOnce(t testing.TB, seen map[int64]int, last int64) {
	t.Helper()
	if int64(len(seen)) != last {
		t.Errorf("kept %d distinct seqs, want %d", len(seen), last)
	}
	for seq := int64(1); seq <= last; seq++ {
		if n := seen[seq]; n != 1 {
			t.Errorf("seq %d kept %d times, want once", seq, n)
		}
	}
}
