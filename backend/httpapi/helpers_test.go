package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

const testToken = "test-token-0123456789abcdef0123456789"

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type env struct {
	mem *servicetest.Mem
	svc *service.Service
	h   *httpapi.Handler
	srv *httptest.Server
}

func newEnv(t testing.TB, cfg httpapi.Config) *env {
	return newEnvWith(t, cfg, service.Options{}, nil)
}

// newEnvWith lets a test tune the service and replace the runner's Watch.
func newEnvWith(t testing.TB, cfg httpapi.Config, opts service.Options,
	watch func(m *servicetest.Mem, ctx context.Context, runID string, after int64) (<-chan run.Event, error)) *env {
	t.Helper()
	m := servicetest.NewMem()
	opts.Log = quiet
	var runner service.Runner = m
	if watch != nil {
		runner = watchOverride{m, watch}
	}
	svc := service.New(m, runner, m, opts)
	if cfg.Token == "" {
		cfg.Token = testToken
	}
	cfg.Log = quiet
	h := httpapi.New(svc, cfg)
	srv := httptest.NewServer(h) // 127.0.0.1, a real listener
	t.Cleanup(srv.Close)
	return &env{mem: m, svc: svc, h: h, srv: srv}
}

// do sends a request with the token unless hdr overrides Authorization.
func (e *env) do(t testing.TB, method, path, body string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func errCode(t testing.TB, body string) string {
	t.Helper()
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Message == "" {
		t.Fatalf("not an error body: %q", body)
	}
	return e.Error.Code
}

// sseClient reads an SSE stream frame by frame.
type sseClient struct {
	res *http.Response
	br  *bufio.Reader
}

type frame struct {
	id, event, data string
	comment         bool
}

func (e *env) openSSE(t testing.TB, ctx context.Context, path string, hdr map[string]string) *sseClient {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", e.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("SSE open: %d %q", res.StatusCode, b)
	}
	return &sseClient{res: res, br: bufio.NewReader(res.Body)}
}

// next returns the next frame (a comment counts as one); io.EOF at end.
func (c *sseClient) next() (frame, error) {
	var f frame
	seen := false
	for {
		line, err := c.br.ReadString('\n')
		if err != nil {
			return f, err
		}
		line = strings.TrimRight(line, "\n")
		if line == "" {
			if seen {
				return f, nil
			}
			continue
		}
		seen = true
		switch {
		case strings.HasPrefix(line, ":"):
			f.comment = true
		case strings.HasPrefix(line, "id: "):
			f.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			f.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			f.data = line[6:]
		}
	}
}

// events reads event frames until done or EOF, returning their seqs and
// checking id, event and data agree.
func (c *sseClient) events(t testing.TB, max int) ([]int64, error) {
	var seqs []int64
	for len(seqs) < max {
		f, err := c.next()
		if err != nil {
			return seqs, err
		}
		if f.comment || f.id == "" {
			continue
		}
		var ev run.Event
		if err := json.Unmarshal([]byte(f.data), &ev); err != nil {
			t.Errorf("bad data %q: %v", f.data, err)
			return seqs, err
		}
		if f.id != ev.EventID || f.event != string(ev.Type) || ev.EventID != ev.RunID+":"+strconv.FormatInt(ev.Seq, 10) {
			t.Errorf("frame id=%q event=%q disagrees with envelope %+v", f.id, f.event, ev)
		}
		seqs = append(seqs, ev.Seq)
		if ev.Terminal {
			return seqs, nil
		}
	}
	return seqs, nil
}

func (c *sseClient) close() { c.res.Body.Close() }

func gapless(t testing.TB, seqs []int64, from, to int64) {
	t.Helper()
	if int64(len(seqs)) != to-from+1 {
		t.Fatalf("got %d events (%v…), want %d..%d", len(seqs), head(seqs), from, to)
	}
	for i, s := range seqs {
		if s != from+int64(i) {
			t.Fatalf("event %d has seq %d, want %d", i, s, from+int64(i))
		}
	}
}

func head(s []int64) []int64 {
	if len(s) > 10 {
		return s[:10]
	}
	return s
}

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func text(s string) run.TextDelta { return run.TextDelta{Text: s} }

type watchOverride struct {
	*servicetest.Mem
	fn func(m *servicetest.Mem, ctx context.Context, runID string, after int64) (<-chan run.Event, error)
}

func (w watchOverride) Watch(ctx context.Context, runID string, after int64) (<-chan run.Event, error) {
	return w.fn(w.Mem, ctx, runID, after)
}

// serveLocal serves e's handler on a local socket (as the app does) until
// the test ends, and returns the socket's path.
func (e *env) serveLocal(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hdp") // short: a socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, httpapi.SocketName)
	ln, err := httpapi.ListenLocal(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- httpapi.ServeLocal(ctx, ln, e.h) }()
	t.Cleanup(func() { cancel(); <-done })
	return sock
}

// proxyTo is `serve` beside a running app: a TCP server proxying to sock.
func proxyTo(t testing.TB, sock string) *httptest.Server {
	proxy := httptest.NewServer(httpapi.NewProxy(sock, httpapi.Config{Token: testToken, Log: quiet}))
	t.Cleanup(proxy.Close)
	return proxy
}
