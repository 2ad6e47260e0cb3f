package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

func TestSecurityRefusals(t *testing.T) {
	e := newEnv(t, httpapi.Config{AllowedHosts: []string{"desk.lan"}})
	host := strings.TrimPrefix(e.srv.URL, "http://")
	tests := []struct {
		name   string
		method string
		path   string
		hdr    map[string]string
		status int
		code   string
	}{
		{"no token", "GET", "/api/projects", map[string]string{"Authorization": ""}, 401, "unauthorized"},
		{"wrong token", "GET", "/api/projects", map[string]string{"Authorization": "Bearer nope"}, 401, "unauthorized"},
		{"token prefix only", "GET", "/api/projects", map[string]string{"Authorization": "Bearer " + testToken[:10]}, 401, "unauthorized"},
		{"basic auth", "GET", "/api/projects", map[string]string{"Authorization": "Basic " + testToken}, 401, "unauthorized"},
		{"right token", "GET", "/api/projects", nil, 200, ""},
		{"lowercase bearer", "GET", "/api/projects", map[string]string{"Authorization": "bearer " + testToken}, 200, ""},
		{"plain health needs nothing", "GET", "/api/health", map[string]string{"Authorization": ""}, 200, ""},
		{"deep health needs the token", "GET", "/api/health?deep=1", map[string]string{"Authorization": ""}, 401, "unauthorized"},
		{"deep health", "GET", "/api/health?deep=1", nil, 200, ""},
		{"events need the token", "GET", "/api/runs/r1/events", map[string]string{"Authorization": "", "Accept": "application/json"}, 401, "unauthorized"},
		{"cross-origin", "GET", "/api/projects", map[string]string{"Origin": "http://evil.example"}, 403, "forbidden"},
		{"cross-origin other port", "GET", "/api/projects", map[string]string{"Origin": "http://127.0.0.1:1"}, 403, "forbidden"},
		{"null origin", "POST", "/api/projects", map[string]string{"Origin": "null"}, 403, "forbidden"},
		{"fetch metadata cross-site", "GET", "/api/projects", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "forbidden"},
		{"same origin", "GET", "/api/projects", map[string]string{"Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"}, 200, ""},
		{"dns rebinding host", "GET", "/api/projects", map[string]string{"Host": "evil.example:80"}, 403, "forbidden"},
		{"dns rebinding even for health", "GET", "/api/health", map[string]string{"Host": "evil.example"}, 403, "forbidden"},
		{"localhost host", "GET", "/api/projects", map[string]string{"Host": "localhost:1234"}, 200, ""},
		{"configured host", "GET", "/api/projects", map[string]string{"Host": "DESK.lan:8765"}, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.do(t, tt.method, tt.path, "", tt.hdr)
			if status != tt.status {
				t.Fatalf("status = %d (%s), want %d", status, body, tt.status)
			}
			if tt.code != "" && errCode(t, body) != tt.code {
				t.Fatalf("code = %s, want %s", errCode(t, body), tt.code)
			}
		})
	}
	// Plain health says only "ok".
	if _, body := e.do(t, "GET", "/api/health", "", map[string]string{"Authorization": ""}); body != "ok\n" {
		t.Fatalf("plain health = %q", body)
	}
}

func TestEmptyTokenRefusesEverything(t *testing.T) {
	m := newEnv(t, httpapi.Config{})
	h := httpapi.New(m.svc, httpapi.Config{Log: quiet}) // no token configured
	req, _ := http.NewRequest("GET", "/api/projects", nil)
	req.Host = "127.0.0.1"
	req.Header.Set("Authorization", "Bearer ")
	rec := &recorder{h: http.Header{}}
	h.ServeHTTP(rec, req)
	if rec.status != 401 {
		t.Fatalf("status = %d, want 401 with no token configured", rec.status)
	}
}

type recorder struct {
	h      http.Header
	status int
}

func (r *recorder) Header() http.Header { return r.h }
func (r *recorder) WriteHeader(s int) {
	if r.status == 0 {
		r.status = s
	}
}
func (r *recorder) Write(b []byte) (int, error) { r.WriteHeader(200); return len(b), nil }

func TestBadInput(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	e.mem.AddRun("run_ok")
	huge := `{"name":"` + strings.Repeat("x", httpapi.MaxBodyBytes) + `"}`
	tests := []struct {
		name, method, path, body string
		hdr                      map[string]string
		status                   int
		code                     string
	}{
		{"malformed JSON", "POST", "/api/projects", `{"workspace":`, nil, 400, "bad_request"},
		{"not an object", "POST", "/api/projects", `[1,2]`, nil, 400, "bad_request"},
		{"wrong type", "POST", "/api/projects", `{"workspace":5}`, nil, 400, "bad_request"},
		{"trailing data", "POST", "/api/projects", `{"workspace":"/"} {}`, nil, 400, "bad_request"},
		{"empty body", "POST", "/api/sessions", ``, nil, 400, "bad_request"},
		{"huge body", "POST", "/api/projects", huge, nil, 413, "too_large"},
		{"huge control body", "POST", "/api/runs/run_ok/queue", huge, nil, 413, "too_large"},
		{"not JSON content", "POST", "/api/projects", `{}`, map[string]string{"Content-Type": "text/plain"}, 415, "bad_request"},
		{"relative workspace", "POST", "/api/projects", `{"workspace":"rel"}`, nil, 400, "bad_request"},
		{"unknown session", "GET", "/api/sessions/ses_nope", ``, nil, 404, "not_found"},
		{"negative session tail", "GET", "/api/sessions/ses_nope?tail=-1", ``, nil, 400, "bad_request"},
		{"session tail not a number", "GET", "/api/sessions/ses_nope?tail=all", ``, nil, 400, "bad_request"},
		{"unknown session patch", "PATCH", "/api/sessions/ses_nope", `{"title":"x"}`, nil, 404, "not_found"},
		{"unknown session delete", "DELETE", "/api/sessions/ses_nope", ``, nil, 404, "not_found"},
		{"unknown project rename", "PATCH", "/api/projects/prj_nope", `{"name":"x"}`, nil, 404, "not_found"},
		{"unknown project delete", "DELETE", "/api/projects/prj_nope", ``, nil, 404, "not_found"},
		{"malformed project rename", "PATCH", "/api/projects/prj_nope", `{"name":`, nil, 400, "bad_request"},
		{"unknown run", "GET", "/api/runs/run_nope", ``, nil, 404, "not_found"},
		{"unknown run events page", "GET", "/api/runs/run_nope/events", ``, map[string]string{"Accept": "application/json"}, 404, "not_found"},
		{"unknown run events stream", "GET", "/api/runs/run_nope/events", ``, nil, 404, "not_found"},
		{"unknown run cancel", "POST", "/api/runs/run_nope/cancel", ``, nil, 404, "not_found"},
		{"unknown run resume", "POST", "/api/runs/run_nope/resume", ``, nil, 404, "not_found"},
		{"unknown run approve", "POST", "/api/runs/run_nope/approvals/a1", `{"choice":"allow"}`, nil, 404, "not_found"},
		{"malformed approve", "POST", "/api/runs/run_ok/approvals/a1", `{"choice":`, nil, 400, "bad_request"},
		{"start on unknown session", "POST", "/api/runs", `{"session_id":"ses_nope","message":"hi","client_request_id":"c"}`, nil, 404, "not_found"},
		{"start with empty message", "POST", "/api/runs", `{"session_id":"ses_nope","message":" ","client_request_id":"c"}`, nil, 400, "bad_request"},
		{"bad status filter", "GET", "/api/runs?status=weird", ``, nil, 400, "bad_request"},
		{"unknown API route", "GET", "/api/nope", ``, nil, 404, "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr := map[string]string{"Content-Type": "application/json"}
			for k, v := range tt.hdr {
				hdr[k] = v
			}
			status, body := e.do(t, tt.method, tt.path, tt.body, hdr)
			if status != tt.status {
				t.Fatalf("status = %d (%s), want %d", status, body, tt.status)
			}
			if got := errCode(t, body); got != tt.code {
				t.Fatalf("code = %s, want %s", got, tt.code)
			}
		})
	}
}

func TestFlowAndControls(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	ws := t.TempDir()
	status, body := e.do(t, "POST", "/api/projects", `{"workspace":`+jsonString(ws)+`}`, nil)
	if status != 201 {
		t.Fatalf("create project: %d %s", status, body)
	}
	var p run.Project
	mustJSON(t, body, &p)
	status, body = e.do(t, "POST", "/api/sessions", `{"project_id":"`+p.ID+`","agent":"demo"}`, nil)
	if status != 201 {
		t.Fatalf("create session: %d %s", status, body)
	}
	var ses run.Session
	mustJSON(t, body, &ses)
	start := `{"session_id":"` + ses.ID + `","message":"hello","client_request_id":"c1"}`
	status, body = e.do(t, "POST", "/api/runs", start, nil)
	if status != 202 {
		t.Fatalf("start: %d %s", status, body)
	}
	var sr run.StartResult
	mustJSON(t, body, &sr)
	if _, again := e.do(t, "POST", "/api/runs", start, nil); again != body {
		t.Fatalf("idempotent start gave %s, want %s", again, body)
	}
	if status, body := e.do(t, "POST", "/api/runs", strings.Replace(start, "hello", "bye", 1), nil); status != 409 || errCode(t, body) != "conflict" {
		t.Fatalf("same id, other body: %d %s", status, body)
	}
	// Controls on an existing run are 200 with a ControlResult, whatever it says.
	for _, c := range []struct{ path, body, want string }{
		{"/cancel", ``, "not-active"},
		{"/cancel", `{}`, "not-active"},
		{"/cancel", `{"force":true}`, "not-active"},
		{"/resume", ``, "not-active"},
		{"/approvals/ap_unknown", `{"choice":"allow_once"}`, "not-active"},
		{"/clarify/cl_unknown", `{"answer":"yes"}`, "not-active"},
		{"/queue", `{"message":"next","client_request_id":"c2"}`, "not-active"},
		{"/model", `{"model":"m2"}`, "unsupported"},
	} {
		status, body := e.do(t, "POST", "/api/runs/"+sr.RunID+c.path, c.body, nil)
		var cr run.ControlResult
		if status != 200 {
			t.Fatalf("%s: %d %s", c.path, status, body)
		}
		mustJSON(t, body, &cr)
		if string(cr.Status) != c.want {
			t.Fatalf("%s: status %q, want %q", c.path, cr.Status, c.want)
		}
	}
	// A choice that matches none of the offered options is bad input: 400
	// naming the choices, not a not-active run.
	e.mem.ApproveFn = func(_ context.Context, _, _, choice string) (run.ControlResult, error) {
		return run.ControlResult{Status: run.ControlInvalid, Message: fmt.Sprintf("%q is not one of the offered choices: yes (Allow), no (Deny)", choice)}, nil
	}
	if status, body := e.do(t, "POST", "/api/runs/"+sr.RunID+"/approvals/ap_1", `{"choice":"maybe"}`, nil); status != 400 || errCode(t, body) != "bad_request" || !strings.Contains(body, "yes (Allow), no (Deny)") {
		t.Fatalf("unmatched choice: %d %s", status, body)
	}
	e.mem.ApproveFn = nil
	// A session setting: a value the setting does not offer is a 400 too.
	e.mem.SetConfigFn = func(_ context.Context, _, id, value string) (run.ControlResult, error) {
		if value != "high" {
			return run.ControlResult{Status: run.ControlInvalid, Message: fmt.Sprintf("%q is not one of the choices of %s (low, high)", value, id)}, nil
		}
		return run.ControlResult{Accepted: true, Status: run.ControlAccepted, EventID: sr.RunID + ":9"}, nil
	}
	if status, body := e.do(t, "POST", "/api/runs/"+sr.RunID+"/config", `{"option":"effort","value":"huge"}`, nil); status != 400 || !strings.Contains(body, "(low, high)") {
		t.Fatalf("a value not offered: %d %s", status, body)
	}
	if status, body := e.do(t, "POST", "/api/runs/"+sr.RunID+"/config", `{"option":"effort","value":"high"}`, nil); status != 200 || !strings.Contains(body, `"accepted":true`) {
		t.Fatalf("set a setting: %d %s", status, body)
	}
	if status, body := e.do(t, "POST", "/api/runs/"+sr.RunID+"/config", `{"option":" ","value":"high"}`, nil); status != 400 {
		t.Fatalf("no setting named: %d %s", status, body)
	}
	e.mem.SetConfigFn = nil
	status, body = e.do(t, "GET", "/api/sessions/"+ses.ID, "", nil)
	var d struct {
		ID       string `json:"id"`
		Messages []struct {
			Role string   `json:"role"`
			Run  *run.Run `json:"run"`
		} `json:"messages"`
	}
	mustJSON(t, body, &d)
	if status != 200 || d.ID != ses.ID || len(d.Messages) != 2 || d.Messages[1].Run == nil || d.Messages[1].Run.ID != sr.RunID {
		t.Fatalf("session detail: %d %s", status, body)
	}
	// ?tail=N: the last N messages only (what the window re-reads after a run).
	status, body = e.do(t, "GET", "/api/sessions/"+ses.ID+"?tail=1", "", nil)
	d.Messages = nil
	mustJSON(t, body, &d)
	if status != 200 || d.ID != ses.ID || len(d.Messages) != 1 || d.Messages[0].Role != "assistant" || d.Messages[0].Run == nil {
		t.Fatalf("session tail: %d %s", status, body)
	}
	status, body = e.do(t, "GET", "/api/runs?status=active&session_id="+ses.ID, "", nil)
	var rs []run.Run
	mustJSON(t, body, &rs)
	if status != 200 || len(rs) != 1 || rs[0].ID != sr.RunID {
		t.Fatalf("active runs: %d %s", status, body)
	}
	status, body = e.do(t, "PUT", "/api/settings", `{"cancel_grace_s":5}`, nil)
	if status != 200 || !strings.Contains(body, `"cancel_grace_s":5`) {
		t.Fatalf("settings: %d %s", status, body)
	}
	if status, body := e.do(t, "PUT", "/api/settings", `{"max_concurrent_runs":0}`, nil); status != 400 || !strings.Contains(body, "max_concurrent_runs") {
		t.Fatalf("bad limit: %d %s", status, body)
	}
	if status, body := e.do(t, "GET", "/api/runs/"+sr.RunID+"/log", "", nil); status != 200 || !strings.Contains(body, `"run_id":"`+sr.RunID+`"`) {
		t.Fatalf("run log: %d %s", status, body)
	}
	for _, id := range []string{"run_nope", "..%2F..%2Fetc"} {
		if status, body := e.do(t, "GET", "/api/runs/"+id+"/log", "", nil); status != 404 {
			t.Fatalf("log of %s: %d %s", id, status, body)
		}
	}
}

func TestEventsJSONPage(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	e.mem.AddRun("r1")
	for range 5 {
		e.mem.Append("r1", run.EventTokenDelta, text("x"))
	}
	status, body := e.do(t, "GET", "/api/runs/r1/events?after=2&limit=2", "", map[string]string{"Accept": "application/json"})
	var page struct {
		Events   []run.Event `json:"events"`
		LastSeq  int64       `json:"last_seq"`
		Terminal bool        `json:"terminal"`
		More     bool        `json:"more"`
	}
	mustJSON(t, body, &page)
	if status != 200 || len(page.Events) != 2 || page.Events[0].Seq != 3 || page.LastSeq != 5 || page.Terminal || !page.More {
		t.Fatalf("page: %d %s", status, body)
	}
	// A cursor of another run replays from the start, never skips.
	_, body = e.do(t, "GET", "/api/runs/r1/events?after=r9:4", "", map[string]string{"Accept": "application/json"})
	mustJSON(t, body, &page)
	if len(page.Events) != 5 || page.More {
		t.Fatalf("foreign cursor page: %s", body)
	}
}

func TestDoInProcess(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	e.mem.AddRun("r1")
	e.mem.Append("r1", run.EventTokenDelta, text("x"))
	e.mem.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	status, body := e.h.Do("GET", "/api/projects", "")
	if status != 200 || strings.TrimSpace(body) != "[]" {
		t.Fatalf("projects: %d %q", status, body)
	}
	status, body = e.h.Do("GET", "/api/runs/r1/events?after=0", "")
	if status != 200 || !strings.Contains(body, `"terminal":true`) || !strings.HasPrefix(body, `{"events":[`) {
		t.Fatalf("events via Do must be a JSON page: %d %q", status, body)
	}
	if status, body := e.h.Do("POST", "/api/projects", `{"workspace":`); status != 400 || errCode(t, body) != "bad_request" {
		t.Fatalf("malformed: %d %q", status, body)
	}
	if status, _ := e.h.Do("GET", "/index.html", ""); status != 404 {
		t.Fatalf("non-API path via Do: %d", status)
	}
	if status, body := e.h.Do("GET", "/api/health?deep=1", ""); status != 200 || !strings.Contains(body, `"database":"ok"`) {
		t.Fatalf("deep health via Do: %d %q", status, body)
	}
}

func TestStaticFrontendWithCSP(t *testing.T) {
	fe := fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; connect-src 'self'">` +
			`<title>Hermes Desk</title></head>`)},
		"assets/app.js": {Data: []byte("console.log(1)")},
	}
	e := newEnv(t, httpapi.Config{Frontend: fe})
	for _, path := range []string{"/", "/?token=" + testToken, "/sessions/abc", "/assets/app.js"} {
		res, err := http.Get(e.srv.URL + path) // no token: static files are public
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		// The header is the page's own policy (one source: csp.ts) plus framing.
		if csp := res.Header.Get("Content-Security-Policy"); csp != "default-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'" {
			t.Fatalf("%s: CSP %q", path, csp)
		}
		if res.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("%s: a login link could leak its token via Referer", path)
		}
		want := "Hermes Desk"
		if path == "/assets/app.js" {
			want = "console.log"
		}
		if !strings.Contains(string(b), want) {
			t.Fatalf("%s: body %q", path, b)
		}
	}
	if res, _ := http.Get(e.srv.URL + "/assets/missing.js"); res.StatusCode != 404 {
		t.Fatalf("missing asset: %d", res.StatusCode)
	}
	none := newEnv(t, httpapi.Config{})
	if res, _ := http.Get(none.srv.URL + "/"); res.StatusCode != 404 || res.Header.Get("Content-Security-Policy") != "default-src 'none'; frame-ancestors 'none'" {
		t.Fatalf("no frontend built: %d %q", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}
	// A bundle whose page lost its meta tag gets nothing, not a weaker policy.
	bare := newEnv(t, httpapi.Config{Frontend: fstest.MapFS{"index.html": {Data: []byte("<title>x</title>")}}})
	if res, _ := http.Get(bare.srv.URL + "/"); res.Header.Get("Content-Security-Policy") != "default-src 'none'; frame-ancestors 'none'" {
		t.Fatalf("page without its CSP: %q", res.Header.Get("Content-Security-Policy"))
	}
}

func TestLocalSocketTrustsOwnUser(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	dir, err := os.MkdirTemp("", "hd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "rt", httpapi.SocketName)
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(sock, nil, 0o600) // a stale file is replaced
	ln, err := httpapi.ListenLocal(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- httpapi.ServeLocal(ctx, ln, e.h) }()
	defer func() { cancel(); <-done }()
	for p, want := range map[string]os.FileMode{sock: 0o600, filepath.Dir(sock): 0o700} {
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm() != want {
			t.Fatalf("%s mode = %v (%v), want %v", p, st.Mode().Perm(), err, want)
		}
	}
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	res, err := c.Get("http://hermesdesk/api/projects") // no token, any Host
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("local socket: %d", res.StatusCode)
	}
}

func TestLoadOrCreateToken(t *testing.T) {
	dir := t.TempDir()
	a, err := httpapi.LoadOrCreateToken(dir)
	if err != nil || len(a) < 40 {
		t.Fatalf("token %q, %v", a, err)
	}
	path := filepath.Join(dir, httpapi.TokenFile)
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("token mode %v", st.Mode().Perm())
	}
	os.Chmod(path, 0o644)
	b, err := httpapi.LoadOrCreateToken(dir)
	if err != nil || b != a {
		t.Fatalf("second load %q, %v; want %q", b, err, a)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("loose token file not tightened: %v", st.Mode().Perm())
	}
	os.WriteFile(path, []byte("short\n"), 0o600)
	if _, err := httpapi.LoadOrCreateToken(dir); err == nil {
		t.Fatal("a damaged token file was accepted")
	}
}

func mustJSON(t testing.TB, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("decode %q: %v", body, err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The page the build really produces (make frontend) carries the policy
// from frontend/src/csp.ts, and the header serves exactly it.
func TestBuiltPageCSP(t *testing.T) {
	dist := os.DirFS("../../frontend/dist")
	if _, err := fs.Stat(dist, "index.html"); err != nil {
		t.Skip("frontend not built (make frontend)")
	}
	e := newEnv(t, httpapi.Config{Frontend: dist})
	res, err := http.Get(e.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.HasPrefix(csp, "default-src 'self'; script-src 'self'") || !strings.HasSuffix(csp, "; frame-ancestors 'none'") || strings.Contains(csp, "unsafe") {
		t.Fatalf("CSP %q", csp)
	}
}

// TestClientFocusEndsWithTheTab: a browser tab names itself on its watch
// stream; when that stream ends (the tab closed or cut off) its focus
// claim ends too, and the notifier hears that nobody looks.
func TestClientFocusEndsWithTheTab(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	got := make(chan service.ClientFocus, 4)
	defer e.svc.OnClientFocus(func(f service.ClientFocus) { got <- f })()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/watch?client=tab-1", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	br := bufio.NewReader(res.Body)
	for { // up to the snapshot: the stream is open
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		if strings.HasPrefix(line, "data: ") {
			break
		}
	}
	if status, body := e.do(t, "PUT", "/api/client/focus", `{"client_id":"tab-1","session_id":"s1","focused":true}`, nil); status != 200 {
		t.Fatalf("focus: %d %s", status, body)
	}
	if f := <-got; !f.Focused || f.SessionID != "s1" {
		t.Fatalf("focus %+v", f)
	}
	cancel() // the tab goes away without a word
	select {
	case f := <-got:
		if f.Focused {
			t.Fatalf("after the tab left: %+v", f)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the tab's claim outlived its stream")
	}
}

// TestClientFocus: the window's focus reaches the service's listeners
// (the notifier), and nonsense is refused in plain words.
func TestClientFocus(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	got := make(chan service.ClientFocus, 2)
	defer e.svc.OnClientFocus(func(f service.ClientFocus) { got <- f })()
	tests := []struct {
		body   string
		status int
	}{
		{`{"session_id":"s1","focused":true}`, 200},
		{`{"session_id":"` + strings.Repeat("x", 1000) + `"}`, 400},
		{`{"session_id":`, 400},
	}
	for _, tc := range tests {
		if status, body := e.do(t, "PUT", "/api/client/focus", tc.body, nil); status != tc.status {
			t.Fatalf("%s: %d %s", tc.body, status, body)
		}
	}
	if f := <-got; f.SessionID != "s1" || !f.Focused || e.svc.ClientFocus() != f {
		t.Fatalf("focus %+v", f)
	}
	if len(got) != 0 {
		t.Fatal("a refused focus reached the listeners")
	}
}

func TestRenameAndRemoveProjectRoutes(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	ws := t.TempDir()
	_, body := e.do(t, "POST", "/api/projects", `{"workspace":`+jsonString(ws)+`}`, nil)
	var p run.Project
	mustJSON(t, body, &p)
	if status, body := e.do(t, "PATCH", "/api/projects/"+p.ID, `{"name":" "}`, nil); status != 400 || errCode(t, body) != "bad_request" {
		t.Fatalf("blank name: %d %s", status, body)
	}
	status, body := e.do(t, "PATCH", "/api/projects/"+p.ID, `{"name":"Website"}`, nil)
	mustJSON(t, body, &p)
	if status != 200 || p.Name != "Website" || p.Workspace != ws {
		t.Fatalf("rename: %d %s", status, body)
	}
	if status, body := e.do(t, "DELETE", "/api/projects/"+p.ID, ``, nil); status != 204 {
		t.Fatalf("delete: %d %s", status, body)
	}
	if status, body := e.do(t, "GET", "/api/projects", ``, nil); status != 200 || strings.Contains(body, p.ID) {
		t.Fatalf("list after delete: %d %s", status, body)
	}
}
