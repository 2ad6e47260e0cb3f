package cli

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// `serve` stopped with SIGTERM closes the agents kept warm for a next
// message, as quitting the app does: with no supervisor left they would
// only hold memory until their idle timeout.
func TestServeSIGTERMClosesWarmAgents(t *testing.T) {
	if shimBin == "" {
		t.Skip("no shim host binary")
	}
	dataDir := newDataDir(t)
	sigs := make(chan os.Signal, 1)
	ready := make(chan string, 1)
	out := &syncBuf{}
	e := &Env{
		Stdout: out, Stderr: out, Executable: shimBin,
		DataDir: func() (string, error) { return dataDir, nil },
		Signals: func() (<-chan os.Signal, func()) { return sigs, func() {} },
		Ready:   func(u string) { ready <- u },
	}
	done := make(chan int, 1)
	go func() { done <- e.Serve([]string{"--addr", "127.0.0.1:0"}, nil) }()
	var srv server
	select {
	case u := <-ready:
		srv.url, srv.token, _ = strings.Cut(u, "/?token=")
		srv.dataDir = dataDir
	case code := <-done:
		t.Fatalf("serve exited %d:\n%s", code, out.String())
	}
	c := httpapi.NewClient(srv.url, srv.token)
	res := srv.startRun(t, c, "/scenario models")
	var warm control.Warm
	deadline := time.Now().Add(60 * time.Second)
	for {
		var r run.Run
		err := c.Call(context.Background(), "GET", "/api/runs/"+res.RunID, nil, &r)
		if err == nil && r.Terminal {
			if warm, err = control.ReadWarm(dataDir, res.SessionID); err == nil {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no warm agent after the run: %+v %v", r, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	sigs <- syscall.SIGTERM
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d:\n%s", code, out.String())
	}
	deadline = time.Now().Add(30 * time.Second)
	for runprocs.Alive(warm.Pid) || runprocs.Alive(warm.AgentPid) {
		if time.Now().After(deadline) {
			t.Fatalf("the warm shim (pid %d) or its agent (pid %d) outlived serve", warm.Pid, warm.AgentPid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
