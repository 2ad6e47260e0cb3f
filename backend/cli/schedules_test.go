//go:build unix

package cli

// Schedules end to end: the real serve (journal, supervisor, scheduler,
// shims, demo agent), no window. The supervisor killed with SIGKILL runs in
// a child process (this test binary re-executed as `serve`), with the
// scheduler's clock shifted by schedule.ClockOffsetEnv to cross due times.

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/schedule"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

const (
	childServeEnv   = "HD_CLI_TEST_CHILD_SERVE"
	childShimBinEnv = "HD_CLI_TEST_SHIM_BIN"
)

// childServe is `hermesdesk serve` in a child process of the test.
func childServe() int {
	e := Default()
	e.Executable = os.Getenv(childShimBinEnv)
	return e.Serve([]string{"--addr", "127.0.0.1:0"}, nil)
}

// startChildServe starts serve in a child process with the scheduler's
// clock offset; it returns once the local API answers.
func startChildServe(t *testing.T, dataDir string, offset time.Duration) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childServeEnv+"=1", childShimBinEnv+"="+shimBin,
		"HERMESDESK_HOME="+dataDir, schedule.ClockOffsetEnv+"="+offset.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		ok := false
		for sc.Scan() {
			if strings.Contains(sc.Text(), "/?token=") && !ok {
				ok = true
				ready <- true
			}
		}
		if !ok {
			ready <- false
		}
	}()
	if !<-ready {
		t.Fatal("child serve exited before listening")
	}
	return cmd
}

func localClient(dataDir string) *httpapi.Client {
	return httpapi.NewLocalClient(httpapi.SocketPath(dataDir))
}

func addSchedule(t *testing.T, c *httpapi.Client, dataDir string, req service.ScheduleRequest) service.ScheduleView {
	t.Helper()
	ctx := context.Background()
	ws := filepath.Join(dataDir, "ws")
	os.MkdirAll(ws, 0o700)
	var p run.Project
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: ws}, &p); err != nil {
		t.Fatal(err)
	}
	req.ProjectID = p.ID
	var s service.ScheduleView
	if err := c.Call(ctx, "POST", "/api/schedules", req, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitHistory polls the history until ok says it is complete (the test's
// only wait: what it waits for is a process elsewhere doing its work).
func waitHistory(t *testing.T, c *httpapi.Client, id string, ok func([]schedule.Firing) bool) []schedule.Firing {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var fs []schedule.Firing
		err := c.Call(context.Background(), "GET", "/api/schedules/"+id+"/history", nil, &fs)
		if err == nil && ok(fs) {
			return fs
		}
		if time.Now().After(deadline) {
			b, _ := json.MarshalIndent(fs, "", " ")
			t.Fatalf("history never settled (err %v):\n%s", err, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func settledRun(fs []schedule.Firing) bool {
	return len(fs) > 0 && fs[0].RunID != "" && run.Status(fs[0].Status).Terminal()
}

// A one-off fires in serve with no window: its run completes and is in the
// journal, in a fresh session named after the schedule.
func TestScheduleFiresWithoutWindow(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	c := localClient(dataDir)
	at := time.Now().Add(1500 * time.Millisecond)
	s := addSchedule(t, c, dataDir, service.ScheduleRequest{Name: "Morning report", Prompt: "/scenario demo\nhello",
		Agent: "demo", At: &at, Timezone: "UTC"})
	if s.NextDue == nil || !s.NextDue.Equal(at) {
		t.Fatalf("next due %v, want %v", s.NextDue, at)
	}
	fs := waitHistory(t, c, s.ID, settledRun)
	if len(fs) != 1 || fs[0].Status != "completed" || fs[0].Outcome != schedule.OutcomeFired {
		t.Fatalf("history %+v", fs)
	}
	var r run.Run
	if err := c.Call(context.Background(), "GET", "/api/runs/"+fs[0].RunID, nil, &r); err != nil || r.Status != run.StatusCompleted || r.LastSeq == 0 {
		t.Fatalf("run %+v %v", r, err)
	}
	var ses run.Session
	if err := c.Call(context.Background(), "GET", "/api/sessions/"+fs[0].SessionID, nil, &ses); err != nil || !strings.HasPrefix(ses.Title, "Morning report · ") {
		t.Fatalf("session %+v %v", ses, err)
	}
	// The one-off is spent: the list says nothing is due and shows the last firing.
	var list []service.ScheduleView
	if err := c.Call(context.Background(), "GET", "/api/schedules", nil, &list); err != nil || len(list) != 1 ||
		list[0].NextDue != nil || list[0].LastFiring == nil || list[0].LastFiring.Status != "completed" {
		t.Fatalf("list %+v %v", list, err)
	}
}

// The supervisor killed with SIGKILL before three hourly due times: the
// restarted one runs exactly one catch-up (policy run once) and its
// history says how many were missed.
func TestScheduleCatchUpAfterKill(t *testing.T) {
	if shimBin == "" {
		t.Skip("no shim host binary")
	}
	dataDir := newDataDir(t)
	first := startChildServe(t, dataDir, 0)
	c := localClient(dataDir)
	s := addSchedule(t, c, dataDir, service.ScheduleRequest{Prompt: "/scenario demo\nhourly", Agent: "demo",
		When: "every hour", Timezone: "UTC", Missed: schedule.MissedRunOnce})
	skip := addSchedule(t, c, dataDir, service.ScheduleRequest{Prompt: "/scenario demo\nskipped", Agent: "demo",
		When: "every hour", Timezone: "UTC", Missed: schedule.MissedSkip})
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()

	// Restart as if three and a half hours passed: three hourly due times,
	// the last one half an hour late (beyond the grace for "on time").
	now := time.Now()
	startChildServe(t, dataDir, now.Truncate(time.Hour).Add(3*time.Hour+30*time.Minute).Sub(now))
	fs := waitHistory(t, c, s.ID, settledRun)
	if len(fs) != 1 || !fs[0].CatchUp || fs[0].Missed != 3 || fs[0].Status != "completed" {
		t.Fatalf("history %+v, want one completed catch-up for 3 missed", fs)
	}
	sk := waitHistory(t, c, skip.ID, func(fs []schedule.Firing) bool { return len(fs) > 0 })
	if len(sk) != 1 || sk[0].Status != "missed" || sk[0].Missed != 3 || sk[0].RunID != "" {
		t.Fatalf("skip policy history %+v, want one missed row and no run", sk)
	}
	var runs []run.Run
	if err := c.Call(context.Background(), "GET", "/api/runs", nil, &runs); err != nil || len(runs) != 1 {
		t.Fatalf("runs %d %v, want exactly 1", len(runs), err)
	}
}

// A schedule whose agent program is missing records "failed to start" with
// the reason, never "done".
func TestScheduleMissingAgentFailsToStart(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	c := localClient(dataDir)
	ctx := context.Background()
	gone := filepath.Join(t.TempDir(), "no-such-agent")
	if err := c.Call(ctx, "PUT", "/api/settings", map[string]any{"agents.demo": map[string]any{"command": []string{gone}}}, nil); err != nil {
		t.Fatal(err)
	}
	s := addSchedule(t, c, dataDir, service.ScheduleRequest{Prompt: "hello", Agent: "demo", When: "every day at 9:00"})
	var f schedule.Firing
	if err := c.Call(ctx, "POST", "/api/schedules/"+s.ID+"/run", nil, &f); err != nil {
		t.Fatal(err)
	}
	fs := waitHistory(t, c, s.ID, func(fs []schedule.Firing) bool {
		return len(fs) > 0 && (fs[0].Status == "failed_to_start" || run.Status(fs[0].Status).Terminal())
	})
	if fs[0].Status != "failed_to_start" || fs[0].Reason == "" || !fs[0].Manual {
		t.Fatalf("firing %+v, want failed_to_start with a reason", fs[0])
	}
	t.Logf("reason: %s", fs[0].Reason)
}

// Bad input is a 400 in plain words and stores nothing.
func TestScheduleBadInput(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	c := localClient(dataDir)
	ctx := context.Background()
	ws := t.TempDir()
	var p run.Project
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: ws}, &p); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Hour)
	for name, req := range map[string]service.ScheduleRequest{
		"invalid expression":  {Prompt: "x", Agent: "demo", ProjectID: p.ID, When: "61 * * * *"},
		"unknown phrase":      {Prompt: "x", Agent: "demo", ProjectID: p.ID, When: "every blue moon"},
		"unknown agent":       {Prompt: "x", Agent: "nope", ProjectID: p.ID, When: "every hour"},
		"unknown project":     {Prompt: "x", Agent: "demo", ProjectID: "prj_nope", When: "every hour"},
		"one-off in the past": {Prompt: "x", Agent: "demo", ProjectID: p.ID, At: &past},
		"empty prompt":        {Prompt: "  ", Agent: "demo", ProjectID: p.ID, When: "every hour"},
		"unknown zone":        {Prompt: "x", Agent: "demo", ProjectID: p.ID, When: "every hour", Timezone: "Mars/Base"},
		"bad policy":          {Prompt: "x", Agent: "demo", ProjectID: p.ID, When: "every hour", Missed: "sometimes"},
	} {
		err := c.Call(ctx, "POST", "/api/schedules", req, nil)
		ae, ok := err.(*httpapi.APIError)
		if !ok || ae.Status != 400 || ae.Message == "" || strings.Contains(ae.Message, "internal") {
			t.Errorf("%s: %v, want a 400 with a message", name, err)
		} else {
			t.Logf("%s: %s", name, ae.Message)
		}
	}
	var list []service.ScheduleView
	if err := c.Call(ctx, "GET", "/api/schedules", nil, &list); err != nil || len(list) != 0 {
		t.Fatalf("bad input stored %d schedules (%v)", len(list), err)
	}
	if err := c.Call(ctx, "GET", "/api/schedules/sch_nope", nil, nil); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown schedule: %v", err)
	}
	var pv service.Preview
	if err := c.Call(ctx, "GET", "/api/schedules/preview?when="+urlq("every weekday at 9:00")+"&timezone=Europe/Berlin", nil, &pv); err != nil || len(pv.Next) != 5 || pv.Cron != "0 9 * * 1-5" {
		t.Fatalf("preview %+v %v", pv, err)
	}
	for _, n := range pv.Next {
		if l := n.In(mustZone(t, "Europe/Berlin")); l.Hour() != 9 || l.Weekday() == time.Saturday || l.Weekday() == time.Sunday {
			t.Errorf("preview time %s", l)
		}
	}
}

func urlq(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, " ", "%20"), ":", "%3A") }

func mustZone(t *testing.T, name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// The CLI: add, ls, pause, resume, run, history, rm.
func TestSchedulesCLI(t *testing.T) {
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	ws := t.TempDir()
	cli := func(args ...string) (int, string) {
		e, out, errOut := cliEnv(dataDir, nil)
		code := e.Schedules(args)
		return code, out.String() + errOut.String()
	}
	code, out := cli("add", "--agent", "demo", "--project", ws, "--when", "every weekday at 9:00", "--name", "Standup", "/scenario demo\nnotes")
	if code != 0 || !strings.Contains(out, "Added schedule sch_") || !strings.Contains(out, "Next run:") {
		t.Fatalf("add: %d %s", code, out)
	}
	id := strings.Fields(out)[2]
	if code, out := cli("add", "--agent", "demo", "--project", ws, "--when", "every blue moon", "x"); code == 0 || !strings.Contains(out, "does not understand") {
		t.Errorf("bad add: %d %s", code, out)
	}
	if code, out := cli("ls"); code != 0 || !strings.Contains(out, "Standup") || !strings.Contains(out, "every weekday at 9:00") {
		t.Errorf("ls: %d %s", code, out)
	}
	if code, out := cli("pause", id); code != 0 || !strings.Contains(out, "Paused") {
		t.Errorf("pause: %d %s", code, out)
	}
	if code, out := cli("ls"); code != 0 || !strings.Contains(out, "paused") {
		t.Errorf("ls paused: %d %s", code, out)
	}
	if code, out := cli("resume", id); code != 0 || !strings.Contains(out, "Resumed") {
		t.Errorf("resume: %d %s", code, out)
	}
	code, out = cli("run", id)
	if code != 0 || !strings.Contains(out, "Started run run_") {
		t.Fatalf("run: %d %s", code, out)
	}
	waitHistory(t, localClient(dataDir), id, settledRun)
	if code, out := cli("history", id); code != 0 || !strings.Contains(out, "completed") || !strings.Contains(out, "run now") {
		t.Errorf("history: %d %s", code, out)
	}
	if code, out := cli("rm", id); code != 0 || !strings.Contains(out, "Deleted") {
		t.Errorf("rm: %d %s", code, out)
	}
	if code, out := cli("rm", id); code == 0 || !strings.Contains(out, "not found") {
		t.Errorf("rm again: %d %s", code, out)
	}
}
