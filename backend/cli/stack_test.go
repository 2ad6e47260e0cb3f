//go:build unix

package cli

// End-to-end tests through the real journal, supervisor, shims and the
// scripted fake agent (`demo-agent`), over a real 127.0.0.1 listener and
// the local unix socket.

import (
	"context"
	"fmt"
	"github.com/hermesdesk/hermesdesk/testkit/shimbuild"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/testkit/runprocs"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// shimBin runs shims and the fake agent (built once in TestMain); binDir
// holds it and the test binaries built later (takeover_test.go).
var shimBin, binDir string

func TestMain(m *testing.M) {
	if os.Getenv(childServeEnv) != "" {
		os.Exit(childServe())
	}
	dir, err := os.MkdirTemp("", "hd-cli-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	shimBin, err = shimbuild.Build(dir, false)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot build the shim host; end-to-end tests will skip:", err)
		shimBin = ""
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is `hermesdesk serve` running in-process on a fresh data dir.
type server struct {
	env     *Env
	dataDir string
	url     string // base URL, without the login path
	token   string
	out     *syncBuf
	stop    func()
}

func startServe(t testing.TB, dataDir string) *server {
	t.Helper()
	if shimBin == "" {
		t.Skip("no shim host binary")
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{dataDir: dataDir, out: &syncBuf{}}
	ready := make(chan string, 1)
	s.env = &Env{
		Stdout: s.out, Stderr: s.out, Ctx: ctx, Executable: shimBin,
		DataDir: func() (string, error) { return dataDir, nil },
		Signals: func() (<-chan os.Signal, func()) { return make(chan os.Signal), func() {} },
		Ready:   func(u string) { ready <- u },
	}
	done := make(chan int, 1)
	go func() { done <- s.env.Serve([]string{"--addr", "127.0.0.1:0"}, nil) }()
	select {
	case u := <-ready:
		s.url, s.token, _ = strings.Cut(u, "/?token=")
	case code := <-done:
		cancel()
		t.Fatalf("serve exited %d:\n%s", code, s.out.String())
	}
	s.stop = func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d:\n%s", code, s.out.String())
		}
	}
	return s
}

func newDataDir(t testing.TB) string {
	t.Helper()
	// Not t.TempDir: a killed shim's git (its own process group, so that
	// Stop can interrupt a snapshot) may still be writing a checkpoint's
	// objects for a moment, and TempDir fails the test on a folder that
	// is not empty yet.
	dir, err := os.MkdirTemp("", "hd-cli-")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HERMESDESK_HOME", dir)
	t.Cleanup(func() {
		runprocs.KillAll(dir)
		os.RemoveAll(filepath.Dir(httpapi.SocketPath(dir)))
		for i := 0; i < 50 && os.RemoveAll(dir) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	return dir
}

// cliEnv is a CLI talking to the running server over the local socket.
func cliEnv(dataDir string, sigs chan os.Signal) (*Env, *syncBuf, *syncBuf) {
	out, errOut := &syncBuf{}, &syncBuf{}
	if sigs == nil {
		sigs = make(chan os.Signal, 2)
	}
	return &Env{
		Stdout: out, Stderr: errOut,
		DataDir: func() (string, error) { return dataDir, nil },
		Signals: func() (<-chan os.Signal, func()) { return sigs, func() {} },
	}, out, errOut
}

// startRun creates a project, a demo session and a run over HTTP.
func (s *server) startRun(t testing.TB, c *httpapi.Client, message string) run.StartResult {
	t.Helper()
	ctx := context.Background()
	ws := filepath.Join(s.dataDir, "ws")
	os.MkdirAll(ws, 0o700)
	var p run.Project
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: ws}, &p); err != nil {
		t.Fatal(err)
	}
	var ses run.Session
	if err := c.Call(ctx, "POST", "/api/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"}, &ses); err != nil {
		t.Fatal(err)
	}
	var res run.StartResult
	req := run.StartRequest{SessionID: ses.ID, Message: message, ClientRequestID: service.NewRequestID()}
	if err := c.Call(ctx, "POST", "/api/runs", req, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func TestEndToEndAskTailAndList(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	if !strings.Contains(srv.out.String(), "/?token="+srv.token) || len(srv.token) < 40 {
		t.Fatalf("serve did not print a login link:\n%s", srv.out.String())
	}
	if st, err := os.Stat(filepath.Join(dataDir, httpapi.TokenFile)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", st, err)
	}

	e, out, errOut := cliEnv(dataDir, nil)
	ws := t.TempDir()
	if code := e.Ask([]string{"--agent", "demo", "--project", ws, "/scenario demo\nhello"}); code != 0 {
		t.Fatalf("ask: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "demo agent") || !strings.Contains(out.String(), "→ ") {
		t.Fatalf("ask printed:\n%s", out.String())
	}
	answer := out.String()

	e, out, _ = cliEnv(dataDir, nil)
	if code := e.Runs([]string{"ls"}); code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "completed") || !strings.Contains(lines[1], "demo") {
		t.Fatalf("runs ls:\n%s", out.String())
	}
	runID := strings.Fields(lines[1])[0]

	// Tailing the finished run replays the same answer and ends.
	e, out, _ = cliEnv(dataDir, nil)
	if code := e.Runs([]string{"tail", runID}); code != 0 || out.String() != answer {
		t.Fatalf("tail: exit %d\n%q\nwant\n%q", code, out.String(), answer)
	}
	e, out, _ = cliEnv(dataDir, nil)
	if code := e.Runs([]string{"ls", "--active"}); code != 0 || out.String() != "No active runs.\n" {
		t.Fatalf("ls --active: %d %q", code, out.String())
	}
}

// A dropped SSE connection resumed with Last-Event-ID yields exactly the
// remaining events of a live run, and the two halves equal the journal.
func TestEndToEndSSEReconnect(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	c := httpapi.NewClient(srv.url, srv.token)
	res := srv.startRun(t, c, "/scenario slow")

	ctx, drop := context.WithCancel(context.Background())
	var first []run.Event
	err := c.Follow(ctx, res.RunID, 0, func(ev run.Event) error {
		first = append(first, ev)
		if ev.Type == run.EventTokenDelta && len(first) >= 6 {
			drop() // the connection goes away mid-run
		}
		return nil
	})
	if err != context.Canceled {
		t.Fatalf("first half: %v", err)
	}
	last := first[len(first)-1].EventID
	// Cancel so the slow scenario ends soon; the watcher must see it all.
	var cr run.ControlResult
	if err := c.Call(context.Background(), "POST", "/api/runs/"+res.RunID+"/cancel", nil, &cr); err != nil || !cr.Accepted {
		t.Fatalf("cancel: %+v %v", cr, err)
	}
	req, _ := http.NewRequest("GET", srv.url+"/api/runs/"+res.RunID+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+srv.token)
	req.Header.Set("Last-Event-ID", last)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body) // ends after done
	resp.Body.Close()
	var rest []string
	for _, line := range strings.Split(string(body), "\n") {
		if id, ok := strings.CutPrefix(line, "id: "); ok {
			rest = append(rest, id)
		}
	}
	var page service.EventPage
	if err := c.Call(context.Background(), "GET", "/api/runs/"+res.RunID+"/events?limit=5000", nil, &page); err != nil {
		t.Fatal(err)
	}
	if !page.Terminal || page.Events[len(page.Events)-1].Type != run.EventDone {
		t.Fatalf("run not ended: %+v", page.Events[len(page.Events)-1])
	}
	var want []string
	for _, ev := range page.Events[len(first):] {
		want = append(want, ev.EventID)
	}
	if strings.Join(rest, ",") != strings.Join(want, ",") {
		t.Fatalf("after %s got\n%v\nwant\n%v", last, rest, want)
	}
	for i, ev := range first {
		if ev.Seq != int64(i+1) {
			t.Fatalf("first half not gapless at %d: %d", i, ev.Seq)
		}
	}
	var done run.Done
	decode(page.Events[len(page.Events)-1], &done)
	if done.Status != run.StatusCancelled {
		t.Fatalf("done = %+v", done)
	}
}

// Several watchers of a flooding run (100k chunks) over HTTP each receive
// the run's identical, gapless sequence, ending with its done.
func TestEndToEndFloodWatchers(t *testing.T) {
	if testing.Short() {
		t.Skip("flood: long")
	}
	watchers := 5
	if raceEnabled {
		watchers = 1 // ~8 s per 100k-event watcher under -race; 50 watchers run in httpapi's tests
	}
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	c := httpapi.NewClient(srv.url, srv.token)
	res := srv.startRun(t, c, "/scenario flood")
	var wg sync.WaitGroup
	counts := make([]int64, watchers)
	for i := range watchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var n int64
			err := c.Follow(context.Background(), res.RunID, 0, func(ev run.Event) error {
				n++
				if ev.Seq != n {
					return fmt.Errorf("watcher %d: seq %d at position %d", i, ev.Seq, n)
				}
				return nil
			})
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		}()
	}
	wg.Wait()
	r := struct {
		LastSeq int64 `json:"last_seq"`
	}{}
	if err := c.Call(context.Background(), "GET", "/api/runs/"+res.RunID, nil, &r); err != nil {
		t.Fatal(err)
	}
	for i, n := range counts {
		if n != r.LastSeq || n < 1000 {
			t.Fatalf("watcher %d got %d events, the run has %d", i, n, r.LastSeq)
		}
	}
}

// `serve` beside a running supervisor fronts its local API instead of
// failing: same data, same token rules.
func TestEndToEndSecondServeProxies(t *testing.T) {
	dataDir := newDataDir(t)
	first := startServe(t, dataDir)
	defer first.stop()
	second := startServe(t, dataDir)
	defer second.stop()
	if !strings.Contains(second.out.String(), "already running") {
		t.Fatalf("second serve said:\n%s", second.out.String())
	}
	// A desktop app started beside serve is such a proxy's client: Do and
	// Doorbells work through the socket.
	proxy := httpapi.NewProxy(httpapi.SocketPath(dataDir), httpapi.Config{})
	rings := make(chan string, 1000)
	ctx, stopRings := context.WithCancel(context.Background())
	ringsDone := make(chan struct{})
	go func() {
		defer close(ringsDone)
		proxy.Doorbells(ctx, func(id string, seq int64) { rings <- fmt.Sprintf("%s:%d", id, seq) })
	}()
	slow := first.startRun(t, httpapi.NewClient(first.url, first.token), "/scenario slow")
	if got := <-rings; !strings.HasPrefix(got, slow.RunID+":") {
		t.Fatalf("doorbell %q, want one for %s", got, slow.RunID)
	}
	stopRings()
	<-ringsDone
	if status, body := proxy.Do("POST", "/api/runs/"+slow.RunID+"/cancel", ""); status != 200 || !strings.Contains(body, `"accepted":true`) {
		t.Fatalf("Do through the proxy: %d %s", status, body)
	}

	res := first.startRun(t, httpapi.NewClient(first.url, first.token), "hi")
	c := httpapi.NewClient(second.url, second.token)
	var got run.Run
	if err := c.Call(context.Background(), "GET", "/api/runs/"+res.RunID, nil, &got); err != nil || got.ID != res.RunID {
		t.Fatalf("through the proxy: %+v %v", got, err)
	}
	bad := httpapi.NewClient(second.url, "wrong-token")
	if err := bad.Call(context.Background(), "GET", "/api/runs/"+res.RunID, nil, &got); err == nil {
		t.Fatal("the proxy accepted a wrong token")
	}
	var n int
	if err := c.Follow(context.Background(), res.RunID, 0, func(run.Event) error { n++; return nil }); err != nil || n == 0 {
		t.Fatalf("SSE through the proxy: %d events, %v", n, err)
	}
}

// The remaining routes answer through the real journal and registry.
func TestEndToEndCatalogRoutes(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	c := httpapi.NewClient(srv.url, srv.token)
	ctx := context.Background()
	res := srv.startRun(t, c, "/scenario demo\nfind the word zebrafish")
	if err := c.Follow(ctx, res.RunID, 0, func(run.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var hits []run.SearchHit
	if err := c.Call(ctx, "GET", "/api/search?q=zebrafish", nil, &hits); err != nil || len(hits) == 0 || hits[0].SessionID != res.SessionID {
		t.Fatalf("search: %+v %v", hits, err)
	}
	var settings map[string]any
	if err := c.Call(ctx, "PUT", "/api/settings", map[string]any{"ui.theme": "dark"}, &settings); err != nil || settings["ui.theme"] != "dark" {
		t.Fatalf("settings: %v %v", settings, err)
	}
	var agents []service.AgentInfo
	if err := c.Call(ctx, "GET", "/api/agents", nil, &agents); err != nil {
		t.Fatal(err)
	}
	var demo *service.AgentInfo
	for i := range agents {
		if agents[i].Name == "demo" {
			demo = &agents[i]
		}
	}
	if demo == nil || !demo.OK || demo.DisplayName == "" {
		t.Fatalf("agents: %+v", agents)
	}
	var audit map[string]any
	if err := c.Call(ctx, "GET", "/api/audit", nil, &audit); err != nil {
		t.Fatalf("audit: %v", err)
	}
	var h service.Health
	if err := c.Call(ctx, "GET", "/api/health?deep=1", nil, &h); err != nil || !h.OK || h.Database != "ok" {
		t.Fatalf("deep health: %+v %v", h, err)
	}
	var d service.SessionDetail
	if err := c.Call(ctx, "GET", "/api/sessions/"+res.SessionID, nil, &d); err != nil || len(d.Messages) != 2 ||
		d.Messages[1].Run == nil || d.Messages[1].Run.Status != run.StatusCompleted || d.Messages[1].Content == "" {
		t.Fatalf("session detail: %+v %v", d, err)
	}
	err := c.Call(ctx, "POST", "/api/runs", run.StartRequest{SessionID: res.SessionID, Message: "x", ClientRequestID: "dup"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Call(ctx, "POST", "/api/runs", run.StartRequest{SessionID: res.SessionID, Message: "y", ClientRequestID: "dup"}, nil)
	if ae, ok := err.(*httpapi.APIError); !ok || ae.Status != 409 || ae.Code != service.CodeConflict {
		t.Fatalf("same request id, other message: %v", err)
	}
}
