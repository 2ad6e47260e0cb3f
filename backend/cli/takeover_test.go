//go:build unix

package cli

// `serve` in front of a real resident core (the built hermesdesk program,
// headless) takes over as the data dir's supervisor when that core goes
// away, killed or quitting: the browser's API answers again, the run in
// flight streams on to its end, and new runs start. The app started again
// is then serve's client, and takes over in turn when serve stops
// (docs/ARCHITECTURE.md §Processes).

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

var (
	appOnce sync.Once
	appBin  string
	appErr  error
)

// buildApp builds the hermesdesk program (core, serve, shims, the shipped
// demo agent) once; it embeds the built web app.
func buildApp(t *testing.T) string {
	t.Helper()
	appOnce.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
		if err != nil {
			appErr = err
			return
		}
		root := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(root, "frontend", "dist", "index.html")); err != nil {
			appErr = errors.New("frontend/dist is not built (make frontend)")
			return
		}
		// Its own folder: binDir/hermesdesk is the shim host (TestMain),
		// which the end-to-end tests need with its test scenarios.
		appBin = filepath.Join(binDir, "app", "hermesdesk")
		cmd := exec.Command("go", "build", "-tags", "sqlite_fts5,webkit2_41", "-o", appBin, ".")
		cmd.Dir = root
		if msg, err := cmd.CombinedOutput(); err != nil {
			appErr = fmt.Errorf("%v: %s", err, msg)
		}
	})
	if appErr != nil {
		t.Skip("cannot build the hermesdesk program:", appErr)
	}
	return appBin
}

// startCore starts the resident core headless on dataDir: no session bus
// (no tray, no notifications), a window program that exits at once.
// It returns once the core's local API answers.
func startCore(t *testing.T, dataDir string) *exec.Cmd {
	t.Helper()
	bin := buildApp(t)
	trueBin, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true(1)")
	}
	cmd := exec.Command(bin, "--background")
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "HERMESDESK_HOME":
		default:
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HERMESDESK_HOME="+dataDir, "HERMESDESK_WINDOW_BIN="+trueBin)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			cmd.Process.Kill()
			<-exited
		}
	})
	c := localClient(dataDir)
	deadline := time.Now().Add(30 * time.Second)
	for c.Ping(context.Background()) != nil {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dataDir, "logs", "hermesdesk.log"))
			t.Fatalf("the core's local API did not answer:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cmd
}

// takeoverDataDir is a data dir for one case (no process-wide env: the
// cases run in parallel).
func takeoverDataDir(t *testing.T) string {
	dir := t.TempDir()
	t.Cleanup(func() {
		runprocs.KillAll(dir)
		os.RemoveAll(filepath.Dir(httpapi.SocketPath(dir)))
	})
	return dir
}

func TestServeTakesOverFromCore(t *testing.T) {
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
	}{
		{"core killed", syscall.SIGKILL},
		{"core quits", syscall.SIGTERM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dataDir := takeoverDataDir(t)
			core := startCore(t, dataDir)
			srv := startServe(t, dataDir)
			stopServe := sync.OnceFunc(srv.stop)
			defer stopServe()
			if !strings.Contains(srv.out.String(), "already running") {
				t.Fatalf("serve did not front the core:\n%s", srv.out.String())
			}
			c := httpapi.NewClient(srv.url, srv.token)
			// The core runs it: the shipped demo agent's slow answer,
			// a word every 300 ms.
			res := srv.startRun(t, c, "/scenario slow")

			seqs := make(chan int64, 1024)
			streamed := make(chan error, 1)
			go func() { streamed <- rawFollow(srv, res.RunID, seqs) }()
			var got []int64
			for range 3 {
				select {
				case s := <-seqs:
					got = append(got, s)
				case err := <-streamed:
					t.Fatalf("stream ended before the core went away: %v", err)
				case <-time.After(30 * time.Second):
					t.Fatal("no events through serve")
				}
			}

			gone := time.Now()
			if err := core.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			// The API answers again within a bounded time, from serve's
			// own service (no 502 once taken over).
			var answered time.Duration
			for {
				if status := get(srv, "/api/runs/"+res.RunID); status == http.StatusOK && strings.Contains(srv.out.String(), "serve supervises it now") {
					answered = time.Since(gone)
					break
				}
				if time.Since(gone) > 20*time.Second {
					t.Fatalf("serve did not take over:\n%s", srv.out.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			t.Logf("%s: serve's API answered from its own service %v after the signal", tc.name, answered.Round(time.Millisecond))
			if status := get(srv, "/api/health"); status != http.StatusOK {
				t.Fatalf("health after take-over: %d", status)
			}

			// The run goes on to its end, each event once, through serve.
			deadline := time.After(90 * time.Second)
		drain:
			for {
				select {
				case s := <-seqs:
					got = append(got, s)
				case err := <-streamed:
					if err != nil {
						t.Fatalf("following the run through serve: %v", err)
					}
					for len(seqs) > 0 {
						got = append(got, <-seqs)
					}
					break drain
				case <-deadline:
					t.Fatal("the run did not end")
				}
			}
			var info struct {
				Status  run.Status `json:"status"`
				LastSeq int64      `json:"last_seq"`
			}
			if err := c.Call(context.Background(), "GET", "/api/runs/"+res.RunID, nil, &info); err != nil {
				t.Fatal(err)
			}
			if info.Status != run.StatusCompleted {
				t.Fatalf("run status %s, want completed", info.Status)
			}
			for i, s := range got {
				if s != int64(i+1) {
					t.Fatalf("event %d has seq %d: duplicated or missing events", i+1, s)
				}
			}
			if int64(len(got)) != info.LastSeq {
				t.Fatalf("got %d events through serve, the run has %d", len(got), info.LastSeq)
			}

			// A new run starts and completes through serve.
			next := srv.startRun(t, c, "hi")
			if err := c.Follow(context.Background(), next.RunID, 0, func(run.Event) error { return nil }); err != nil {
				t.Fatal(err)
			}
			if err := c.Call(context.Background(), "GET", "/api/runs/"+next.RunID, nil, &info); err != nil || info.Status != run.StatusCompleted {
				t.Fatalf("new run after take-over: %+v %v", info, err)
			}

			// The app started again is serve's client now, and takes over
			// in turn when serve stops.
			startCore(t, dataDir)
			waitLog(t, dataDir, "using its local API until it goes away")
			stopServe()
			waitLog(t, dataDir, "this process is now its supervisor")
			var again struct {
				Status run.Status `json:"status"`
			}
			if err := localClient(dataDir).Call(context.Background(), "GET", "/api/runs/"+next.RunID, nil, &again); err != nil || again.Status != run.StatusCompleted {
				t.Fatalf("the app after serve stopped: %+v %v", again, err)
			}
		})
	}
}

// waitLog waits for the core's log to say what.
func waitLog(t *testing.T, dataDir, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		log, _ := os.ReadFile(filepath.Join(dataDir, "logs", "hermesdesk.log"))
		if strings.Contains(string(log), what) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the core's log never said %q:\n%s", what, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// get answers a GET through serve's TCP port with the token.
func get(srv *server, path string) int {
	req, _ := http.NewRequest("GET", srv.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+srv.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// rawFollow reads a run's SSE stream through serve, resuming with
// Last-Event-ID after a cut or a 502 as the web app does, and sends every
// seq the server sent — duplicates included — until the run's done.
func rawFollow(srv *server, runID string, seqs chan<- int64) error {
	last := ""
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		req, _ := http.NewRequest("GET", srv.url+"/api/runs/"+runID+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+srv.token)
		req.Header.Set("Accept", "text/event-stream")
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			if err == nil {
				resp.Body.Close()
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var ev run.Event
			if err := json.Unmarshal([]byte(data), &ev); err != nil || ev.Seq == 0 {
				continue
			}
			last = ev.EventID
			seqs <- ev.Seq
			if ev.Type == run.EventDone {
				resp.Body.Close()
				return nil
			}
		}
		resp.Body.Close()
	}
	return errors.New("the run did not end within 2 minutes")
}
