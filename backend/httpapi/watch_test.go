package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

func nextMsg(t *testing.T, ch <-chan run.WatchMessage, want run.WatchType) run.WatchMessage {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-ch:
			if !ok {
				t.Fatalf("watch closed waiting for %s", want)
			}
			if m.Type == want {
				return m
			}
		case <-timeout:
			t.Fatalf("no %s message", want)
		}
	}
}

// GET /api/watch over SSE: the snapshot, then a run started through the
// API and its doorbells, each a `data:` line with one WatchMessage.
func TestWatchSSE(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := httpapi.NewClient(e.srv.URL, testToken)
	ch, err := c.Watch(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	if m := nextMsg(t, ch, run.WatchSnapshotType); len(m.Snapshot.Runs) != 0 {
		t.Fatalf("snapshot %+v", m.Snapshot)
	}
	var p run.Project
	if err := c.Call(ctx, "POST", "/api/projects", map[string]string{"workspace": t.TempDir()}, &p); err != nil {
		t.Fatal(err)
	}
	var ses run.Session
	if err := c.Call(ctx, "POST", "/api/sessions", map[string]string{"project_id": p.ID, "agent": "demo"}, &ses); err != nil {
		t.Fatal(err)
	}
	if m := nextMsg(t, ch, run.WatchSessionChanged); m.Session.Kind != run.SessionCreated && m.Session.Kind != run.ProjectChanged {
		t.Fatalf("session change %+v", m.Session)
	}
	var res run.StartResult
	if err := c.Call(ctx, "POST", "/api/runs", map[string]string{"session_id": ses.ID, "message": "hi"}, &res); err != nil {
		t.Fatal(err)
	}
	if m := nextMsg(t, ch, run.WatchRunChanged); m.Run.RunID != res.RunID || m.Run.SessionID != ses.ID {
		t.Fatalf("run.changed %+v", m.Run)
	}
	e.mem.Append(res.RunID, run.EventTokenDelta, run.TextDelta{Text: "x"})
	for {
		m := nextMsg(t, ch, run.WatchDoorbell)
		if m.Run.RunID == res.RunID && m.Run.LastSeq == 3 {
			break
		}
	}
	// The JSON page is the snapshot alone (the window's Request path).
	code, body := e.do(t, "GET", "/api/watch", "", map[string]string{"Accept": "application/json"})
	var snap run.WatchMessage
	if code != 200 || json.Unmarshal([]byte(body), &snap) != nil || snap.Type != run.WatchSnapshotType ||
		len(snap.Snapshot.Runs) != 1 || snap.Snapshot.Runs[0].LastSeq != 3 {
		t.Fatalf("snapshot page %d %s", code, body)
	}
}

// A server going away ends the client's watch with a goodbye.
func TestWatchClientGoodbyeOnDisconnect(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	ch, err := httpapi.NewClient(e.srv.URL, testToken).Watch(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	nextMsg(t, ch, run.WatchSnapshotType)
	e.svc.CloseWatchers()
	if m := nextMsg(t, ch, run.WatchGoodbye); m.Reason != "shutdown" {
		t.Fatalf("goodbye %+v", m)
	}
	if _, ok := <-ch; ok {
		t.Fatal("open after goodbye")
	}
}

// GET /api/agents reads the cache; ?refresh=1 checks again.
func TestAgentsRefresh(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	for range 3 {
		if code, body := e.do(t, "GET", "/api/agents", "", nil); code != 200 {
			t.Fatal(code, body)
		}
	}
	if n := e.mem.HealthChecks(); n != 1 {
		t.Fatalf("%d checks for three reads", n)
	}
	e.do(t, "GET", "/api/agents?refresh=1", "", nil)
	if n := e.mem.HealthChecks(); n != 2 {
		t.Fatalf("%d checks after a refresh", n)
	}
}

// GET /api/agents/{name}/models: an agent without a server list says so;
// an unknown agent is not found.
func TestAgentModelsRoute(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	if code, body := e.do(t, "GET", "/api/agents/demo/models", "", nil); code != 200 || !strings.Contains(body, `"listed":false`) || !strings.Contains(body, `"models":[]`) {
		t.Fatal(code, body)
	}
	if code, body := e.do(t, "GET", "/api/agents/nope/models?refresh=1", "", nil); code != 404 {
		t.Fatal(code, body)
	}
}

// GET /api/agents/{name}/config: an agent no session reported settings
// for yet answers an empty list; an unknown agent is not found.
func TestAgentConfigRoute(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	if code, body := e.do(t, "GET", "/api/agents/demo/config", "", nil); code != 200 || !strings.Contains(body, `"agent":"demo","options":[]`) {
		t.Fatal(code, body)
	}
	if code, body := e.do(t, "GET", "/api/agents/nope/config", "", nil); code != 404 {
		t.Fatal(code, body)
	}
}
