//go:build unix

package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

func TestHostPath(t *testing.T) {
	for _, tc := range []struct {
		path, host, want string
		ok               bool
	}{
		{"/api/hosts/h1/runs/r1/approvals/a1", "h1", "/api/runs/r1/approvals/a1", true},
		{"/api/hosts/h1/projects", "h1", "/api/projects", true},
		{"/api/hosts/h1/", "h1", "", false},
		{"/api/hosts/h10/projects", "h1", "", false},
		{"/api/hosts/h1/../../health", "h1", "", false},
		{"/api/hosts/h1/runs/../projects", "h1", "/api/projects", true},
	} {
		got, ok := hostPath(tc.path, tc.host)
		if got != tc.want || ok != tc.ok {
			t.Errorf("hostPath(%q, %q) = %q, %v; want %q, %v", tc.path, tc.host, got, ok, tc.want, tc.ok)
		}
	}
}

// Whatever the path, a host is only asked for its own API.
func FuzzHostPath(f *testing.F) {
	for _, p := range []string{"/api/hosts/h1/projects", "/api/hosts/h1/../x", "/api/hosts/h1//a/./b/", "/api/hosts/h1/.."} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		out, ok := hostPath(p, "h1")
		if ok && (!strings.HasPrefix(out, "/api/") || strings.Contains(out, "/../") || strings.HasSuffix(out, "/..")) {
			t.Fatalf("hostPath(%q) = %q leaves the API", p, out)
		}
	})
}

// The desktop side drives a run on the host through its own API: a
// project, a session and a run made through /api/hosts/h1/…, the agent's
// approval seen on the local bus (tagged h1) and answered through the same
// API; the run completes on the host. An unknown host and a cut link are
// said in words.
func TestApproveARemoteRunFromTheDesktopSide(t *testing.T) {
	rc := startRemoteCore(t)
	link := newRelay(t, "h1", rc.socket)
	mem := servicetest.NewMem()
	local := service.New(mem, mem, mem, service.Options{Log: quiet})
	api := httpapi.New(local, httpapi.Config{Log: quiet, Hosts: NewProxy(func(host string) (Link, bool) {
		return link, host == "h1"
	}, quiet)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bus, err := local.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f := New(link, newMemSink(), Options{Log: quiet, MinBackoff: 20 * time.Millisecond, Message: local.PublishRemote})
	done := make(chan struct{})
	go func() { f.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	call := func(method, path string, in, out any, want int) {
		t.Helper()
		b, _ := json.Marshal(in)
		if in == nil {
			b = nil
		}
		status, body := api.Do(method, path, string(b))
		if status != want {
			t.Fatalf("%s %s: %d %s, want %d", method, path, status, body, want)
		}
		if out != nil {
			if err := json.Unmarshal([]byte(body), out); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
		}
	}
	var p run.Project
	call("POST", "/api/hosts/h1/projects", service.CreateProjectRequest{Workspace: rc.dataDir}, &p, 201)
	var ses run.Session
	call("POST", "/api/hosts/h1/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"}, &ses, 201)
	var res run.StartResult
	call("POST", "/api/hosts/h1/runs", run.StartRequest{SessionID: ses.ID, Message: "/scenario approval",
		ClientRequestID: service.NewRequestID()}, &res, 202)

	await := func(what string, ok func(run.RunState) bool) run.RunState {
		t.Helper()
		timeout := time.After(60 * time.Second)
		for {
			select {
			case m := <-bus:
				if m.Type == run.WatchRunChanged && m.Run.RunID == res.RunID && ok(*m.Run) {
					return *m.Run
				}
			case <-timeout:
				t.Fatalf("no %s on the local bus", what)
			}
		}
	}
	asking := await("approval of the remote run", func(st run.RunState) bool { return st.Pending != nil })
	if asking.Host != "h1" || asking.Pending.Kind != run.PendingApproval {
		t.Fatalf("the approval on the local bus: %+v", asking)
	}
	var cr run.ControlResult
	call("POST", fmt.Sprintf("/api/hosts/h1/runs/%s/approvals/%s", res.RunID, asking.Pending.ID),
		map[string]string{"choice": "allow-once"}, &cr, 200)
	end := await("the run's end", func(st run.RunState) bool { return st.Status.Terminal() })
	if end.Status != run.StatusCompleted || end.Host != "h1" {
		t.Fatalf("the remote run ended %+v", end)
	}
	var r run.Run
	call("GET", "/api/hosts/h1/runs/"+res.RunID, nil, &r, 200)
	if r.Status != run.StatusCompleted {
		t.Fatalf("on the host the run is %s", r.Status)
	}

	// An attachment bigger than a JSON body is uploaded to the host.
	big := strings.Repeat("x", 2<<20)
	status, body := api.Do("POST", "/api/hosts/h1/uploads?name=big.txt", big)
	var up struct {
		Path string `json:"path"`
		Size int64  `json:"size"`
	}
	if json.Unmarshal([]byte(body), &up); status != 201 || up.Size != int64(len(big)) || !strings.HasPrefix(up.Path, rc.dataDir) {
		t.Fatalf("upload to the host: %d %s", status, body)
	}

	// A JSON body over the limit is refused here, in words about it.
	status, body = api.Do("POST", "/api/hosts/h1/projects", `{"name":"`+big+`"}`)
	if status != 413 || !strings.Contains(body, "larger than 1 MiB") {
		t.Fatalf("too big a body: %d %s", status, body)
	}

	status, body = api.Do("GET", "/api/hosts/nowhere/projects", "")
	if status != 404 || !strings.Contains(body, "no host named nowhere") {
		t.Fatalf("unknown host: %d %s", status, body)
	}
	link.Cut()
	status, body = api.Do("GET", "/api/hosts/h1/projects", "")
	if status != 502 || !strings.Contains(body, "cannot be reached") {
		t.Fatalf("cut link: %d %s", status, body)
	}
}
