//go:build unix

package remote_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/apihost"
	"github.com/hermesdesk/hermesdesk/backend/remote"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The whole path through the local core as it is wired (apihost): a link
// handed to Host.Remote().Follow, the host's run on the local bus tagged
// with its host, its approval answered through /api/hosts/{host}/…, the
// link cut while it ends, and after reconnect its end told once and its
// session searchable in the local journal (docs/ARCHITECTURE.md §Remote
// cores).
func TestThroughTheCore(t *testing.T) {
	core := remote.StartTestCore(t)
	link := remote.NewTestRelay(t, "devbox", core.Socket)
	localDir, err := os.MkdirTemp("", "hd-local-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(localDir) })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b, err := apihost.Open(ctx, apihost.Options{DataDir: localDir, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	bus, err := b.Handler().Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b.Remote().Follow(link)

	do := func(method, path string, in, out any) {
		t.Helper()
		body, _ := json.Marshal(in)
		if in == nil {
			body = nil
		}
		status, res := b.Handler().Do(method, path, string(body))
		if status >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, status, res)
		}
		if out != nil {
			json.Unmarshal([]byte(res), out)
		}
	}
	res := core.StartRun("/scenario approval")
	await := func(what string, ok func(run.WatchMessage) bool) run.WatchMessage {
		t.Helper()
		timeout := time.After(60 * time.Second)
		for {
			select {
			case m, open := <-bus:
				if !open {
					t.Fatalf("the local bus closed waiting for %s", what)
				}
				if ok(m) {
					return m
				}
			case <-timeout:
				t.Fatalf("no %s on the local bus", what)
			}
		}
	}
	ofRun := func(m run.WatchMessage) bool { return m.Type == run.WatchRunChanged && m.Run.RunID == res.RunID }
	asking := await("the host's approval", func(m run.WatchMessage) bool { return ofRun(m) && m.Run.Pending != nil }).Run
	if asking.Host != "devbox" {
		t.Fatalf("the run on the local bus: %+v", asking)
	}
	link.Cut()
	await("the host unreachable", func(m run.WatchMessage) bool {
		return m.Type == run.WatchHostChanged && m.HostState.Host == "devbox" && !m.HostState.Reachable
	})
	// Answered on the host itself while the link is down (the person at
	// the workstation); the run ends there.
	var cr run.ControlResult
	if err := core.Client.Call(ctx, "POST", fmt.Sprintf("/api/runs/%s/approvals/%s", res.RunID, asking.Pending.ID), map[string]string{"choice": "allow-once"}, &cr); err != nil {
		t.Fatal(err)
	}
	core.Finish(res.RunID)
	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	end := await("the run's end after reconnect", func(m run.WatchMessage) bool { return ofRun(m) && m.Run.Status.Terminal() }).Run
	if end.Status != run.StatusCompleted || end.Host != "devbox" {
		t.Fatalf("end %+v", end)
	}
	// The local copy, made before the end was told: searchable here.
	var hits []run.SearchHit
	do("GET", "/api/search?q=Permission", nil, &hits)
	if len(hits) == 0 {
		t.Fatal("the remote session is not searchable locally")
	}
	// Through the same API: the host's run as the host has it.
	var r run.Run
	do("GET", "/api/hosts/devbox/runs/"+res.RunID, nil, &r)
	if r.Status != run.StatusCompleted {
		t.Fatalf("on the host: %s", r.Status)
	}
}
