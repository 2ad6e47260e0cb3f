//go:build linux

package hosts_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/version"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
	"github.com/hermesdesk/hermesdesk/testkit/sshd"
	"golang.org/x/sys/unix"
)

// localCore is this machine's core as a real hermesdesk process (a
// detached `serve --socket-only` on a data dir of its own), whose
// supervisor links and follows every host (docs/ARCHITECTURE.md §Hosts,
// "Joined").
type localCore struct {
	t   *testing.T
	bin string
	dir string
	env []string
}

func newLocalCore(t *testing.T, bin string, srv *sshd.Server) *localCore {
	dir, err := os.MkdirTemp("", "hd-local-")
	if err != nil {
		t.Fatal(err)
	}
	rt, err := os.MkdirTemp("", "hr")
	if err != nil {
		t.Fatal(err)
	}
	// The test reaches the core's socket by the same paths as the core.
	t.Setenv("HERMESDESK_HOME", dir)
	t.Setenv("XDG_RUNTIME_DIR", rt)
	c := &localCore{t: t, bin: bin, dir: dir, env: append(os.Environ(), hosts.EnvSSHConfig+"="+srv.ConfigFile)}
	t.Cleanup(func() {
		c.kill(syscall.SIGTERM)
		// A core killed -9 leaves its link's ssh behind.
		for _, pid := range linkPIDs() {
			syscall.Kill(pid, syscall.SIGTERM)
		}
		os.RemoveAll(dir)
		os.RemoveAll(rt)
	})
	return c
}

// start starts the core; serve --detach returns once it answers.
func (c *localCore) start() *httpapi.Client {
	c.t.Helper()
	cmd := exec.Command(c.bin, "serve", "--socket-only", "--detach")
	cmd.Env = c.env
	if out, err := cmd.CombinedOutput(); err != nil {
		c.t.Fatalf("start the local core: %v %s", err, out)
	}
	return httpapi.NewLocalClient(httpapi.SocketPath(c.dir))
}

func (c *localCore) pid() int {
	b, _ := os.ReadFile(filepath.Join(c.dir, "host-core.json"))
	var pid int
	if i := bytes.Index(b, []byte(`"pid":`)); i >= 0 {
		fmt.Sscan(string(b[i+6:]), &pid)
	}
	return pid
}

func (c *localCore) kill(sig syscall.Signal) {
	if pid := c.pid(); pid > 0 {
		syscall.Kill(pid, sig)
	}
}

// linkPIDs are the ssh processes that forward into this test's runtime
// dir: the local core's links.
func linkPIDs() []int {
	rt := os.Getenv("XDG_RUNTIME_DIR")
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var pids []int
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if filepath.Base(args[0]) == "ssh" && strings.Contains(string(b), "-L\x00"+rt) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			pids = append(pids, pid)
		}
	}
	return pids
}

func linkPID(t *testing.T) int {
	t.Helper()
	pids := linkPIDs()
	if len(pids) != 1 {
		t.Fatalf("link ssh processes: %v, want one", pids)
	}
	return pids[0]
}

// busWaiter reads a watch stream until what it waits for.
type busWaiter struct {
	t  *testing.T
	ch <-chan run.WatchMessage
}

func (b busWaiter) await(what string, ok func(run.WatchMessage) bool) run.WatchMessage {
	b.t.Helper()
	timeout := time.After(90 * time.Second)
	for {
		select {
		case m, open := <-b.ch:
			if !open {
				b.t.Fatalf("the bus closed waiting for %s", what)
			}
			if ok(m) {
				return m
			}
		case <-timeout:
			b.t.Fatalf("no %s on the bus", what)
		}
	}
}

// The test (issue 30) through a real sshd and a real local core:
// the host added through the local API is linked and followed by itself;
// a demo run on a project there asks, is approved from this side, and a
// second run goes on there while the link's ssh is killed and the local
// core is killed -9; a schedule of that project fires on the host with
// the local core stopped. The local core started again tells the run's
// end once, and the local copy of the session has each run's events
// 1…last exactly once.
func TestJoinedHostSurvivesTheLinkAndTheLocalCore(t *testing.T) {
	srv := sshd.Start(t)
	bin := buildApp(t)
	t.Cleanup(func() { stopHostCore(srv) })
	ctx := ctxT(t)
	ctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	core := newLocalCore(t, bin, srv)
	api := core.start()
	wctx, stopWatch := context.WithCancel(ctx)
	ch, err := api.Watch(wctx, false)
	if err != nil {
		t.Fatal(err)
	}
	bus := busWaiter{t, ch}

	var h hosts.Host
	if err := api.Call(ctx, "POST", "/api/hosts", service.AddHostRequest{Target: srv.Alias}, &h); err != nil {
		srv.Dump(t.Output())
		t.Fatal(err)
	}
	bus.await("the host reached", func(m run.WatchMessage) bool {
		return m.Type == run.WatchHostChanged && m.HostState.Host == h.ID && m.HostState.Reachable
	})
	remote := remoteAPI(t, srv)
	on := "/api/hosts/" + h.ID

	ws := filepath.Join(srv.RemoteHome, "project")
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	var p run.Project
	if err := api.Call(ctx, "POST", on+"/projects", service.CreateProjectRequest{Workspace: ws}, &p); err != nil {
		t.Fatal(err)
	}
	var ses run.Session
	if err := api.Call(ctx, "POST", on+"/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"}, &ses); err != nil {
		t.Fatal(err)
	}
	start := func(msg string) run.StartResult {
		var res run.StartResult
		req := run.StartRequest{SessionID: ses.ID, Message: msg, ClientRequestID: service.NewRequestID()}
		if err := api.Call(ctx, "POST", on+"/runs", req, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	ofRun := func(id string) func(run.WatchMessage) bool {
		return func(m run.WatchMessage) bool { return m.Type == run.WatchRunChanged && m.Run.RunID == id }
	}

	// Asked on the host, approved from this side through the local API.
	ask := start("/scenario approval")
	asking := bus.await("the host's approval", func(m run.WatchMessage) bool { return ofRun(ask.RunID)(m) && m.Run.Pending != nil }).Run
	if asking.Host != h.ID {
		t.Fatalf("the run on the local bus is not tagged with its host: %+v", asking)
	}
	var cr run.ControlResult
	if err := api.Call(ctx, "POST", fmt.Sprintf("%s/runs/%s/approvals/%s", on, ask.RunID, asking.Pending.ID), map[string]string{"choice": "allow-once"}, &cr); err != nil || cr.Status != run.ControlAccepted {
		t.Fatalf("approve from the desktop side: %v %+v", err, cr)
	}
	if end := bus.await("the approved run's end", func(m run.WatchMessage) bool { return ofRun(ask.RunID)(m) && m.Run.Status.Terminal() }).Run; end.Status != run.StatusCompleted {
		t.Fatalf("approved run ended %s", end.Status)
	}

	// A schedule of the host's project, due in a minute: the host fires it.
	var sch struct{ ID string }
	if err := api.Call(ctx, "POST", on+"/schedules", map[string]any{"name": "nightly", "prompt": "/scenario demo\nscheduled", "agent": "demo", "project_id": p.ID, "when": "in 1 minute"}, &sch); err != nil {
		t.Fatal(err)
	}
	// Watch the host's own bus to see what happens there meanwhile.
	hostBus, err := remote.Watch(ctx, false)
	if err != nil {
		t.Fatal(err)
	}

	// Mid-run: the link's ssh killed, then the local core killed -9.
	slow := start("/scenario slow")
	bus.await("the slow run going", func(m run.WatchMessage) bool { return ofRun(slow.RunID)(m) && m.Run.Status == run.StatusRunning })
	if err := syscall.Kill(linkPID(t), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	down := bus.await("the host unreachable", func(m run.WatchMessage) bool {
		return m.Type == run.WatchHostChanged && m.HostState.Host == h.ID && !m.HostState.Reachable
	}).HostState
	if !strings.Contains(down.Error, "host "+srv.Alias+" ") || down.Record == nil || down.Record.Target != srv.Alias {
		t.Errorf("the host unreachable, in words and with its record: %+v", down)
	}
	// The link comes back by itself; then the local core is killed -9,
	// and its link's ssh ends with it (not left holding the forward).
	bus.await("the host reached again", func(m run.WatchMessage) bool {
		return m.Type == run.WatchHostChanged && m.HostState.Host == h.ID && m.HostState.Reachable
	})
	sshFD, err := unix.PidfdOpen(linkPID(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(sshFD)
	stopWatch()
	core.kill(syscall.SIGKILL)
	if n, err := unix.Poll([]unix.PollFd{{Fd: int32(sshFD), Events: unix.POLLIN}}, 30_000); err != nil || n != 1 {
		t.Fatalf("the link's ssh outlived the local core killed -9: %v", err)
	}

	// With the local core stopped, the host ends the run and fires the
	// schedule.
	var slowLast int64
	if err := remote.Follow(ctx, slow.RunID, 0, func(e run.Event) error { slowLast = e.Seq; return nil }); err != nil {
		t.Fatalf("the slow run on the host: %v", err)
	}
	hb := busWaiter{t, hostBus}
	fired := hb.await("the schedule's run on the host", func(m run.WatchMessage) bool {
		return m.Type == run.WatchRunChanged && m.Run.SessionID != ses.ID
	}).Run
	if core.pid() > 0 && syscall.Kill(core.pid(), 0) == nil {
		t.Fatal("the local core still runs")
	}

	// Started again: the run's end is told once, the copy is whole.
	api = core.start()
	ch, err = api.Watch(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	bus = busWaiter{t, ch}
	end := bus.await("the slow run's end after reconnect", func(m run.WatchMessage) bool {
		return ofRun(slow.RunID)(m) && m.Run.Status.Terminal()
	}).Run
	if end.Status != run.StatusCompleted || end.Host != h.ID {
		t.Fatalf("end told %+v", end)
	}
	checkCopy(ctx, t, api, remote, []string{ask.RunID, slow.RunID})
	// Told once: up to a marker (a local project made now), no second end.
	var lp run.Project
	if err := api.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: t.TempDir()}, &lp); err != nil {
		t.Fatal(err)
	}
	again := 0
	bus.await("the marker", func(m run.WatchMessage) bool {
		if ofRun(slow.RunID)(m) && m.Run.Status.Terminal() {
			again++
		}
		return m.Type == run.WatchSessionChanged && m.Session.ProjectID == lp.ID
	})
	if again != 0 {
		t.Fatalf("the slow run's end was told %d more times", again)
	}
	t.Logf("approval run, slow run (%d events) and the scheduled run %s on the host; local copy whole", slowLast, fired.RunID)
}

// stopHostCore stops the host's core and its shims, which outlive every
// ssh session.
func stopHostCore(srv *sshd.Server) {
	if pid := readCorePID(srv); pid > 0 {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	runprocs.KillAll(filepath.Join(srv.RemoteHome, ".local/share/hermesdesk"))
}

// remoteAPI is the host's core reached directly (the test runs on the
// same machine): its socket as serve --detach reports it.
func remoteAPI(t *testing.T, srv *sshd.Server) *httpapi.Client {
	t.Helper()
	prog := filepath.Join(srv.RemoteHome, ".local/share/hermesdesk/bin/hermesdesk-"+version.Version)
	cmd := exec.Command("ssh", append(srv.SSHArgs(), srv.Alias, prog, "serve", "--socket-only", "--detach")...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ask the host's core for its socket: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "socket="); ok {
			return httpapi.NewLocalClient(v)
		}
	}
	t.Fatalf("the host's core did not say its socket: %q", out)
	return nil
}

// checkCopy: the local copy of the session holds the host's runs in
// order, each with its events 1…last exactly once, last being the host's.
func checkCopy(ctx context.Context, t *testing.T, local, remote *httpapi.Client, hostRuns []string) service.SessionDetail {
	t.Helper()
	var list []run.Session
	if err := local.Call(ctx, "GET", "/api/sessions", nil, &list); err != nil || len(list) != 1 {
		t.Fatalf("local sessions: %v %+v", err, list)
	}
	var d service.SessionDetail
	if err := local.Call(ctx, "GET", "/api/sessions/"+list[0].ID, nil, &d); err != nil {
		t.Fatal(err)
	}
	var copied []string
	for _, m := range d.Messages {
		if m.Run != nil && (len(copied) == 0 || copied[len(copied)-1] != m.Run.ID) {
			copied = append(copied, m.Run.ID)
		}
	}
	if len(copied) != len(hostRuns) {
		t.Fatalf("the local copy has %d runs, the host %d", len(copied), len(hostRuns))
	}
	for i, id := range copied {
		seqs := eventSeqs(ctx, t, local, id)
		want := eventSeqs(ctx, t, remote, hostRuns[i])
		for j, s := range seqs {
			if s != int64(j+1) {
				t.Fatalf("copied run %d: events %v, want 1…%d once", i, seqs, len(want))
			}
		}
		if len(seqs) != len(want) {
			t.Fatalf("copied run %d: %d events, the host's %d", i, len(seqs), len(want))
		}
	}
	return d
}

func eventSeqs(ctx context.Context, t *testing.T, c *httpapi.Client, runID string) []int64 {
	t.Helper()
	var seqs []int64
	if err := c.Follow(ctx, runID, 0, func(e run.Event) error { seqs = append(seqs, e.Seq); return nil }); err != nil {
		t.Fatalf("events of %s: %v", runID, err)
	}
	return seqs
}

// follows records what Keep hands over.
type follows struct {
	links  chan *hosts.Link
	forgot chan string
}

func (f follows) Follow(l *hosts.Link) { f.links <- l }
func (f follows) Forget(id string)     { f.forgot <- id }

// Keep links a host added after it and hands the link over; Remove
// forgets the follower, ends the link's ssh and stops the host's core
// (docs/ARCHITECTURE.md §Hosts, "Joined").
func TestKeepLinksAddedHostsAndRemoveStopsTheCore(t *testing.T) {
	f := newFixture(t)
	ctx := ctxT(t)
	fl := follows{links: make(chan *hosts.Link, 4), forgot: make(chan string, 4)}
	if err := f.svc.Keep(ctx, fl); err != nil {
		t.Fatal(err)
	}
	h, err := f.svc.Add(ctx, f.srv.Alias)
	if err != nil {
		t.Fatal(err)
	}
	var l *hosts.Link
	select {
	case l = <-fl.links:
	case <-ctx.Done():
		t.Fatal("the added host's link was not handed over")
	}
	if l.Host() != h.ID {
		t.Fatalf("link of %q, want %q", l.Host(), h.ID)
	}
	select {
	case <-l.Up():
	case <-ctx.Done():
		t.Fatal("the link did not come up")
	}
	if err := httpapi.NewLocalClient(l.Socket()).Ping(ctx); err != nil {
		t.Fatalf("the host's API through the kept link: %v", err)
	}
	pid := remoteCorePID(t, f.srv)
	pidfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Skip("no pidfd:", err)
	}
	defer unix.Close(pidfd)
	sshPid := l.PID()
	if err := f.svc.Remove(ctx, h.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-fl.forgot:
		if id != h.ID {
			t.Fatalf("forgot %q", id)
		}
	default:
		t.Fatal("Remove did not forget the follower")
	}
	if sshPid > 0 && syscall.Kill(sshPid, 0) == nil {
		t.Errorf("the link's ssh %d still runs after Remove", sshPid)
	}
	// The host's core ends (pidfd readable at its exit).
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, 30_000); err != nil || n != 1 {
		t.Fatalf("the host's core %d did not stop: %v", pid, err)
	}
	if list, _ := f.svc.List(ctx); len(list) != 0 {
		t.Fatalf("still stored: %+v", list)
	}
}
