//go:build unix

package hosts_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/version"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
	"github.com/hermesdesk/hermesdesk/testkit/sshd"
)

var (
	appOnce sync.Once
	appBin  string
	appErr  error
)

// buildApp builds the real hermesdesk program once (it embeds the built
// web app, so frontend/dist must exist).
func buildApp(t testing.TB) string {
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
		dir, err := os.MkdirTemp("", "hd-hosts-app-")
		if err != nil {
			appErr = err
			return
		}
		appBin = filepath.Join(dir, "hermesdesk")
		cmd := exec.Command("go", "build", "-tags", "sqlite_fts5,webkit2_41", "-o", appBin, ".")
		cmd.Dir = root
		if msg, err := cmd.CombinedOutput(); err != nil {
			appErr = errors.New(err.Error() + ": " + string(msg))
		}
	})
	if appErr != nil {
		t.Skip("cannot build the hermesdesk program:", appErr)
	}
	return appBin
}

type fixture struct {
	srv *sshd.Server
	svc *hosts.Service
	bin string
}

// newFixture: a real sshd, this data dir's journal and a short private
// runtime dir (socket paths are limited to ~104 bytes).
func newFixture(t testing.TB) *fixture {
	t.Helper()
	srv := sshd.Start(t)
	bin := buildApp(t)
	rt, err := os.MkdirTemp("", "hl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	store, err := journal.Open(filepath.Join(t.TempDir(), "hermesdesk.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc, err := hosts.New(store, hosts.Options{
		SSH: hosts.SSH{Args: srv.SSHArgs()}, Executable: bin, Version: version.Version, RuntimeDir: rt,
	})
	if err != nil {
		t.Fatal(err)
	}
	// The remote core and its shims outlive every ssh session: stop them
	// when the test ends.
	t.Cleanup(func() {
		if pid := readCorePID(srv); pid > 0 {
			syscall.Kill(pid, syscall.SIGTERM)
		}
		runprocs.KillAll(filepath.Join(srv.RemoteHome, ".local/share/hermesdesk"))
	})
	return &fixture{srv: srv, svc: svc, bin: bin}
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func wantState(t testing.TB, states <-chan hosts.LinkState, up bool) {
	t.Helper()
	for {
		select {
		case s := <-states:
			if s.Up == up {
				return
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("the link did not come %v", map[bool]string{true: "up", false: "down"}[up])
		}
	}
}

// Add the host, start its core, reach its API through the forwarded
// socket; kill the link's ssh: the link says down, comes back by itself,
// and the API answers again.
func TestLinkReachesTheHostsCoreAndComesBack(t *testing.T) {
	f := newFixture(t)
	ctx := ctxT(t)
	h, err := f.svc.Add(ctx, f.srv.Alias)
	if err != nil {
		f.srv.Dump(t.Output())
		t.Fatalf("add: %v", err)
	}
	if h.Status != hosts.StatusReady || h.OS != "linux" || h.Arch == "" {
		t.Fatalf("added %+v", h)
	}
	states := make(chan hosts.LinkState, 16)
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	l, err := f.svc.Connect(lctx, h.ID, func(s hosts.LinkState) { states <- s })
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	installed := filepath.Join(f.srv.RemoteHome, ".local/share/hermesdesk/bin/hermesdesk-"+version.Version)
	st, err := os.Stat(installed)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("the program on the host: %v %v", st, err)
	}
	wantState(t, states, true)
	sock, err := os.Stat(l.Socket())
	if err != nil || sock.Mode().Perm() != 0o600 {
		t.Fatalf("forwarded socket %v %v", sock, err)
	}
	if dir, _ := os.Stat(filepath.Dir(l.Socket())); dir.Mode().Perm() != 0o700 {
		t.Fatalf("socket folder mode %v", dir.Mode())
	}
	if err := httpapi.NewLocalClient(l.Socket()).Ping(ctx); err != nil {
		f.srv.Dump(t.Output())
		t.Fatalf("the host's API through the link: %v", err)
	}

	pid := l.PID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wantState(t, states, false)
	if list, _ := f.svc.List(ctx); len(list) != 1 || list[0].Status != hosts.StatusUnreachable || list[0].Note == "" {
		t.Errorf("while the link is down: %+v", list)
	}
	wantState(t, states, true)
	if l.PID() == pid {
		t.Fatal("the same ssh after a reconnect")
	}
	if err := httpapi.NewLocalClient(l.Socket()).Ping(ctx); err != nil {
		t.Fatalf("the host's API after the link came back: %v", err)
	}

	// The host's core crashed (or the host rebooted) behind a link that is
	// up: a redial starts it again before linking.
	corePID := remoteCorePID(t, f.srv)
	if err := syscall.Kill(corePID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	l.Redial()
	wantState(t, states, false)
	wantState(t, states, true)
	if got := remoteCorePID(t, f.srv); got == corePID {
		t.Fatal("the host's core was not started again")
	}
	if err := httpapi.NewLocalClient(l.Socket()).Ping(ctx); err != nil {
		t.Fatalf("the host's API after its core was started again: %v", err)
	}

	// Starting again finds the same program (no second copy) and the same
	// core running.
	if _, err := f.svc.Start(ctx, h.ID); err != nil {
		t.Fatal(err)
	}
	if st2, _ := os.Stat(installed); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("the program was copied again though its checksum matched")
	}
	list, _ := f.svc.List(ctx)
	if len(list) != 1 || list[0].Status != hosts.StatusRunning || list[0].Version != version.Version {
		t.Errorf("listed %+v", list)
	}
}

// A changed or unknown host key is refused by ssh and said in words;
// nothing is stored.
func TestAddRefusesHostKeys(t *testing.T) {
	f := newFixture(t)
	ctx := ctxT(t)
	for _, tc := range []struct {
		name  string
		set   func(testing.TB)
		want  hosts.Problem
		words string
	}{
		{"changed", f.srv.ChangeHostKey, hosts.ProblemHostKeyChanged, "CHANGED"},
		{"unknown", f.srv.ForgetHostKey, hosts.ProblemHostKeyUnknown, "not known yet"},
	} {
		tc.set(t)
		_, err := f.svc.Add(ctx, f.srv.Alias)
		var e *hosts.Error
		if !errors.As(err, &e) || e.Problem != tc.want || !strings.Contains(e.Sentence, tc.words) {
			t.Errorf("%s host key: %v", tc.name, err)
		}
	}
	if list, _ := f.svc.List(ctx); len(list) != 0 {
		t.Errorf("stored after refusals: %+v", list)
	}
}

// A host whose uname says another platform is refused in words; an ARM64
// host with no ARM64 program beside this one is refused when started.
func TestOtherArchitectures(t *testing.T) {
	f := newFixture(t)
	ctx := ctxT(t)
	f.srv.RemoteCommand(t, "uname", "#!/bin/sh\ncase \"$1\" in -s) echo Linux;; -m) echo riscv64;; esac\n")
	_, err := f.svc.Add(ctx, f.srv.Alias)
	var e *hosts.Error
	if !errors.As(err, &e) || e.Problem != hosts.ProblemPlatform || !strings.Contains(e.Sentence, "riscv64") {
		t.Fatalf("riscv64 host: %v", err)
	}

	other := "arm64"
	if runtime.GOARCH == "arm64" {
		other = "amd64"
	}
	f.srv.RemoteCommand(t, "uname", "#!/bin/sh\ncase \"$1\" in -s) echo Linux;; -m) echo "+map[string]string{"arm64": "aarch64", "amd64": "x86_64"}[other]+";; esac\n")
	h, err := f.svc.Add(ctx, f.srv.Alias)
	if err != nil || h.Arch != other {
		t.Fatalf("%s host: %+v %v", other, h, err)
	}
	_, err = f.svc.Start(ctx, h.ID)
	if !errors.As(err, &e) || e.Problem != hosts.ProblemPlatform || !strings.Contains(e.Sentence, "hermesdesk-linux-"+other) {
		t.Fatalf("start on %s without its program: %v", other, err)
	}
	if list, _ := f.svc.List(ctx); len(list) != 1 || list[0].Status != hosts.StatusUnreachable || list[0].Note == "" {
		t.Errorf("after a refused start: %+v", list)
	}
}

// readCorePID is the pid the host's core recorded (0: none).
func readCorePID(srv *sshd.Server) int {
	b, err := os.ReadFile(filepath.Join(srv.RemoteHome, ".local/share/hermesdesk/host-core.json"))
	var c struct{ PID int }
	if err != nil || json.Unmarshal(b, &c) != nil {
		return 0
	}
	return c.PID
}

func remoteCorePID(t *testing.T, srv *sshd.Server) int {
	t.Helper()
	pid := readCorePID(srv)
	if pid <= 0 {
		t.Fatal("the host's core recorded no pid")
	}
	return pid
}

// The host's core supervises runs: a project in a folder on the host, a
// session of the demo agent, a run started and followed to its end, all
// through the forwarded socket (the same API as locally).
func TestRunOnTheHostThroughTheLink(t *testing.T) {
	f := newFixture(t)
	ctx := ctxT(t)
	h, err := f.svc.Add(ctx, f.srv.Alias)
	if err != nil {
		t.Fatal(err)
	}
	states := make(chan hosts.LinkState, 16)
	l, err := f.svc.Connect(ctx, h.ID, func(s hosts.LinkState) { states <- s })
	if err != nil {
		t.Fatal(err)
	}
	wantState(t, states, true)
	c := httpapi.NewLocalClient(l.Socket())
	ws := filepath.Join(f.srv.RemoteHome, "project")
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	var p run.Project
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: ws}, &p); err != nil {
		t.Fatal(err)
	}
	var ses run.Session
	if err := c.Call(ctx, "POST", "/api/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"}, &ses); err != nil {
		t.Fatal(err)
	}
	var res run.StartResult
	req := run.StartRequest{SessionID: ses.ID, Message: "/scenario demo\nhello from the desk", ClientRequestID: service.NewRequestID()}
	if err := c.Call(ctx, "POST", "/api/runs", req, &res); err != nil {
		t.Fatal(err)
	}
	var last int64
	if err := c.Follow(ctx, res.RunID, 0, func(e run.Event) error {
		if e.Seq != last+1 {
			t.Errorf("event %d after %d", e.Seq, last)
		}
		last = e.Seq
		return nil
	}); err != nil {
		t.Fatalf("follow the run on the host: %v", err)
	}
	var info run.Run
	if err := c.Call(ctx, "GET", "/api/runs/"+res.RunID, nil, &info); err != nil {
		t.Fatal(err)
	}
	if info.Status != run.StatusCompleted || last < 2 {
		t.Fatalf("the run on the host: %s after %d events", info.Status, last)
	}
}

// What a check finds, through a real sshd, in the person's words: nothing
// listening, a key the host does not take, a home it cannot write.
func TestAddSaysWhatFailed(t *testing.T) {
	f := newFixture(t)
	ctx := ctxT(t)
	f.srv.RemoteCommand(t, "mkdir", "#!/bin/sh\necho 'mkdir: Permission denied' >&2\nexit 1\n")
	for _, tc := range []struct {
		target string
		want   hosts.Problem
		words  string
	}{
		{sshd.ClosedAlias, hosts.ProblemUnreachable, "unreachable"},
		{sshd.NoKeyAlias, hosts.ProblemAuth, "refused the login"},
		{f.srv.Alias, hosts.ProblemNoHome, "no writable home"},
	} {
		_, err := f.svc.Add(ctx, tc.target)
		var e *hosts.Error
		if !errors.As(err, &e) || e.Problem != tc.want || !strings.Contains(e.Sentence, tc.words) {
			t.Errorf("%s: %v", tc.target, err)
		}
	}
	if list, _ := f.svc.List(ctx); len(list) != 0 {
		t.Errorf("stored after refusals: %+v", list)
	}
}
