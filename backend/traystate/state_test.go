package traystate

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/watchbus"
	"github.com/hermesdesk/hermesdesk/testkit/fakeclock"
	"github.com/hermesdesk/hermesdesk/testkit/watchfake"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func rs(id string, st run.Status, created time.Time, pending *run.PendingPrompt) run.RunState {
	return run.RunState{RunID: id, SessionID: "s-" + id, Agent: "demo", SessionTitle: "Fix " + id, Status: st, CreatedAt: created, Pending: pending}
}

var approval = &run.PendingPrompt{Kind: run.PendingApproval, ID: "a1", Title: "Run ls",
	Options: []run.ApprovalOption{{ID: "allow_once", Label: "Allow once"}, {ID: "reject", Label: "Reject"}}}

func TestRenderIconTooltipAndOrder(t *testing.T) {
	tests := []struct {
		name      string
		runs      []run.RunState
		icon      Icon
		tooltip   string
		firstRuns []string // run ids in menu order
	}{
		{"idle", nil, IconIdle, "Hermes Desk — nothing running", nil},
		{"one running", []run.RunState{rs("a", run.StatusRunning, t0, nil)}, IconRunning, "Hermes Desk — 1 run running", []string{"a"}},
		{"queued counts as active", []run.RunState{rs("a", run.StatusQueued, t0, nil), rs("b", run.StatusRunning, t0, nil)}, IconRunning, "Hermes Desk — 2 runs running", []string{"a", "b"}},
		{"needs you wins", []run.RunState{rs("a", run.StatusRunning, t0, nil), rs("b", run.StatusAwaitingApproval, t0.Add(time.Minute), approval)},
			IconNeedsYou, "Hermes Desk — 2 runs running, 1 needs you", []string{"b", "a"}},
		{"only parked runs: no running badge", []run.RunState{rs("a", run.StatusParked, t0, nil), rs("b", run.StatusParked, t0, nil)},
			IconIdle, "Hermes Desk — 2 runs wait for quota", []string{"a", "b"}},
		{"a parked run beside a running one", []run.RunState{rs("a", run.StatusParked, t0, nil), rs("b", run.StatusRunning, t0, nil)},
			IconRunning, "Hermes Desk — 2 runs running", []string{"a", "b"}},
		{"all need you", []run.RunState{rs("a", run.StatusAwaitingClarify, t0, nil)}, IconNeedsYou, "Hermes Desk — 1 run needs you", []string{"a"}},
		{"two need you", []run.RunState{rs("a", run.StatusAwaitingClarify, t0, nil), rs("b", run.StatusAwaitingApproval, t0, approval), rs("c", run.StatusRunning, t0, nil)},
			IconNeedsYou, "Hermes Desk — 3 runs running, 2 need you", []string{"a", "b", "c"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			s.Apply(run.WatchMessage{Type: run.WatchSnapshotType, Snapshot: &run.WatchSnapshot{Runs: tc.runs}})
			v := Render(s.Runs(), Options{Now: t0.Add(5 * time.Minute)})
			if v.Icon != tc.icon || v.Tooltip != tc.tooltip {
				t.Fatalf("icon %q tooltip %q; want %q %q", v.Icon, v.Tooltip, tc.icon, tc.tooltip)
			}
			var got []string
			for _, it := range v.Items {
				if len(it.Children) == 2 && it.Children[1].Action == ActionStopRun {
					got = append(got, it.Children[1].RunID)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.firstRuns, ",") {
				t.Fatalf("run order %v, want %v", got, tc.firstRuns)
			}
		})
	}
}

func labels(items []Item) []string {
	var out []string
	for _, it := range items {
		l := it.Label
		if it.Separator {
			l = "---"
		}
		out = append(out, l)
	}
	return out
}

func TestRenderMenu(t *testing.T) {
	started := t0.Add(2 * time.Minute)
	r := rs("a", run.StatusAwaitingApproval, t0, approval)
	r.StartedAt = &started
	tests := []struct {
		name      string
		runs      []run.RunState
		autostart bool
		want      []string
		quit      []string // the Quit submenu, nil for a plain Quit
	}{
		{"idle", nil, false, []string{LabelNewSession, LabelOpen, LabelAutostart, "---", LabelQuit}, nil},
		{"one run", []run.RunState{r}, true,
			[]string{"Fix a — demo — needs approval — 1 h 3 min", "---", LabelNewSession, LabelOpen, LabelAutostart, "---", LabelQuit},
			[]string{"Keep 1 run running in the background", "Stop 1 run and quit"}},
		{"two runs", []run.RunState{rs("a", run.StatusRunning, t0, nil), rs("b", run.StatusQueued, t0, nil)}, false,
			[]string{"Fix a — demo — running — 1 h 5 min", "Fix b — demo — queued — 1 h 5 min", "---", LabelNewSession, LabelOpen, LabelAutostart, "---", LabelQuit},
			[]string{"Keep 2 runs running in the background", "Stop 2 runs and quit"}},
		{"another host's run only", []run.RunState{{RunID: "x", SessionTitle: "Build", Host: "devbox", Agent: "demo", Status: run.StatusRunning, CreatedAt: t0}}, false,
			[]string{"Build — on devbox — demo — running — 1 h 5 min", "---", LabelNewSession, LabelOpen, LabelAutostart, "---", LabelQuit}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Render(tc.runs, Options{Now: t0.Add(65 * time.Minute), Autostart: tc.autostart})
			if got := labels(v.Items); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("menu\n got %q\nwant %q", got, tc.want)
			}
			var auto, quit Item
			for _, it := range v.Items {
				switch it.Label {
				case LabelAutostart:
					auto = it
				case LabelQuit:
					quit = it
				}
			}
			if !auto.Checkbox || auto.Checked != tc.autostart {
				t.Errorf("autostart item %+v", auto)
			}
			if tc.quit == nil {
				if quit.Action != ActionQuit || quit.Children != nil {
					t.Errorf("quit with no runs should be plain: %+v", quit)
				}
				return
			}
			if got := labels(quit.Children); strings.Join(got, "|") != strings.Join(tc.quit, "|") {
				t.Errorf("quit submenu %q, want %q", got, tc.quit)
			}
			if quit.Children[0].Action != ActionQuitKeep || quit.Children[1].Action != ActionQuitStop {
				t.Errorf("quit actions %+v", quit.Children)
			}
			run0 := v.Items[0].Children
			if run0[0].Action != ActionOpenSession || run0[0].SessionID != tc.runs[0].SessionID || run0[1].Action != ActionStopRun || run0[1].RunID != tc.runs[0].RunID {
				t.Errorf("run submenu %+v", run0)
			}
		})
	}
}

// Each vendor's quota line sits under the runs, as a line to read (no
// action), whether runs are listed or not (docs/ARCHITECTURE.md §Usage).
func TestRenderQuotaLines(t *testing.T) {
	q := []string{"Codex: 72 % of the 5-hour window, resets 14:20", "Claude: 5-hour limit reached, resets 15:00", " \n"}
	idle := Render(nil, Options{Now: t0, Quota: q})
	want := []string{q[0], q[1], "---", LabelNewSession, LabelOpen, LabelAutostart, "---", LabelQuit}
	if got := labels(idle.Items); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("idle menu\n got %q\nwant %q", got, want)
	}
	if idle.Items[0].Action != ActionNone || idle.Items[0].Children != nil {
		t.Errorf("a quota line is not clickable: %+v", idle.Items[0])
	}
	busy := Render([]run.RunState{rs("a", run.StatusRunning, t0, nil)}, Options{Now: t0, Quota: q[:1]})
	want = []string{"Fix a — demo — running — just now", "---", q[0], "---", LabelNewSession, LabelOpen, LabelAutostart, "---", LabelQuit}
	if got := labels(busy.Items); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("menu with a run\n got %q\nwant %q", got, want)
	}
}

func TestRenderCapsRuns(t *testing.T) {
	var runs []run.RunState
	for i := range MaxRunItems + 3 {
		runs = append(runs, rs(string(rune('a'+i)), run.StatusRunning, t0, nil))
	}
	v := Render(runs, Options{Now: t0})
	if got := v.Items[MaxRunItems].Label; got != "and 3 more — open Hermes Desk to see them" {
		t.Fatalf("overflow line %q", got)
	}
	if v.Running != MaxRunItems+3 || !strings.Contains(QuitItem(v.Running).Children[1].Label, "13 runs") {
		t.Fatalf("running %d", v.Running)
	}
}

func TestRunLabel(t *testing.T) {
	long := strings.Repeat("word ", 20)
	tests := []struct {
		name string
		r    run.RunState
		want string
	}{
		{"untitled", run.RunState{Agent: "claude", Status: run.StatusRunning, CreatedAt: t0}, "Untitled session — claude — running — just now"},
		{"by its name", run.RunState{Agent: "my-acp", AgentName: "My ACP Agent", Status: run.StatusRunning, CreatedAt: t0}, "Untitled session — My ACP Agent — running — just now"},
		{"control characters", run.RunState{SessionTitle: "a\nb\u202ec\x1b", Agent: "x", Status: run.StatusCancelling, CreatedAt: t0}, "a b c — x — stopping — just now"},
		{"long title", run.RunState{SessionTitle: long, Agent: "x", Status: run.StatusRunning}, strings.TrimSpace(long[:39]) + "… — x — running"},
		{"parked", run.RunState{SessionTitle: "t", Agent: "claude", Status: run.StatusParked,
			ResumesAt: time.Date(2026, 3, 1, 15, 0, 0, 0, time.Local).UTC().Format(time.RFC3339), CreatedAt: t0},
			"t — claude — Waiting for quota — resumes at 15:00 — just now"},
		{"parked, no time known", run.RunState{SessionTitle: "t", Agent: "claude", Status: run.StatusParked, CreatedAt: t0},
			"t — claude — Waiting for quota — just now"},
		{"in a worktree", run.RunState{SessionTitle: "t", Workspace: "hermesdesk/abcdefghijklmnop", Agent: "x", Status: run.StatusRunning, CreatedAt: t0}, "t — in hermesdesk/abcdefghijklmnop — x — running — just now"},
		{"on another host", run.RunState{SessionTitle: "t", Host: "devbox", Agent: "x", Status: run.StatusRunning}, "t — on devbox — x — running"},
		{"on a host, by its name", run.RunState{SessionTitle: "t", Host: "host_1a2b", HostName: "me@build-box", Agent: "x", Status: run.StatusRunning}, "t — on me@build-box — x — running"},
		{"long workspace", run.RunState{SessionTitle: "t", Workspace: "feature/" + strings.Repeat("b", 40), Agent: "x", Status: run.StatusRunning}, "t — in feature/" + strings.Repeat("b", 23) + "… — x — running"},
		{"question", run.RunState{SessionTitle: "t", Agent: "x", Status: run.StatusAwaitingClarify, Pending: &run.PendingPrompt{Kind: run.PendingClarify}, CreatedAt: t0.Add(-49 * time.Hour)}, "t — x — has a question — 2 d"},
	}
	for _, tc := range tests {
		if got := RunLabel(tc.r, t0.Add(30*time.Second)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestAge(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{0, "just now"}, {59 * time.Second, "just now"}, {time.Minute, "1 min"}, {59 * time.Minute, "59 min"},
		{time.Hour, "1 h"}, {90 * time.Minute, "1 h 30 min"}, {25 * time.Hour, "1 d"}, {-time.Minute, "just now"}} {
		if got := Age(t0, t0.Add(tc.d)); got != tc.want {
			t.Errorf("Age(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
	if Age(time.Time{}, t0) != "" {
		t.Error("zero start should give no age")
	}
}

func TestApply(t *testing.T) {
	s := New()
	if !s.Apply(run.WatchMessage{Type: run.WatchSnapshotType, Snapshot: &run.WatchSnapshot{Runs: []run.RunState{
		rs("a", run.StatusRunning, t0, nil), rs("done", run.StatusCompleted, t0, nil)}}}) {
		t.Fatal("snapshot changes the state")
	}
	if len(s.Runs()) != 1 {
		t.Fatalf("a terminal run in a snapshot is not active: %+v", s.Runs())
	}
	steps := []struct {
		msg     run.WatchMessage
		changed bool
		active  int
	}{
		{run.WatchMessage{Type: run.WatchRunChanged, Run: ptr(rs("b", run.StatusQueued, t0, nil))}, true, 2},
		{run.WatchMessage{Type: run.WatchRunChanged, Run: ptr(rs("b", run.StatusAwaitingApproval, t0, approval))}, true, 2},
		{run.WatchMessage{Type: run.WatchSessionChanged, Session: &run.SessionChange{Kind: run.SessionActivity}}, false, 2},
		{run.WatchMessage{Type: run.WatchRunChanged}, false, 2},
		{run.WatchMessage{Type: run.WatchRunChanged, Run: ptr(rs("b", run.StatusCompleted, t0, nil))}, true, 1},
		{run.WatchMessage{Type: run.WatchRunChanged, Run: ptr(rs("zz", run.StatusFailed, t0, nil))}, false, 1},
		{run.WatchMessage{Type: run.WatchGoodbye}, false, 1},
		{run.WatchMessage{Type: run.WatchSnapshotType}, true, 0},
	}
	for i, st := range steps {
		if got := s.Apply(st.msg); got != st.changed || len(s.Runs()) != st.active {
			t.Fatalf("step %d: changed %v active %d; want %v %d", i, got, len(s.Runs()), st.changed, st.active)
		}
	}
}

func ptr(r run.RunState) *run.RunState { return &r }

// TestModelFollowsBusAcrossGoodbye: the icon goes idle → running → needs
// you → idle, and a goodbye leads to a fresh snapshot that carries what
// the model missed.
func TestModelFollowsBusAcrossGoodbye(t *testing.T) {
	bus := watchfake.New()
	views := make(chan View, 64)
	m := NewModel(func(v View) { views <- v })
	m.clock = testClock{fakeclock.New(t0)}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); watchbus.Follow(ctx, bus, m.Apply, watchbus.Options{}) }()
	defer func() { cancel(); wg.Wait() }()

	next := func(want Icon, running int) {
		t.Helper()
		for {
			v := <-views
			if v.Icon == want && v.Running == running {
				return
			}
		}
	}
	next(IconIdle, 0)
	bus.Publish(rs("a", run.StatusRunning, t0, nil))
	next(IconRunning, 1)
	bus.Publish(rs("a", run.StatusAwaitingApproval, t0, approval))
	next(IconNeedsYou, 1)
	// Missed while the watcher was behind: the next snapshot has it.
	bus.SetQuiet(rs("a", run.StatusRunning, t0, nil))
	bus.SetQuiet(rs("b", run.StatusRunning, t0, nil))
	bus.Goodbye("behind")
	next(IconRunning, 2)
	if bus.Watches() != 2 {
		t.Fatalf("watches %d, want 2 (one reconnect)", bus.Watches())
	}
	bus.Publish(rs("a", run.StatusCompleted, t0, nil))
	bus.Publish(rs("b", run.StatusCancelled, t0, nil))
	next(IconIdle, 0)
}

// Following the bus and reconnecting is watchbus.Follow's (its tests).

func TestModelSendsOnlyChanges(t *testing.T) {
	var n int
	m := NewModel(func(View) { n++ })
	m.clock = testClock{fakeclock.New(t0)}
	m.Refresh()
	m.Refresh()
	m.Apply(run.WatchMessage{Type: run.WatchSessionChanged})
	if n != 1 {
		t.Fatalf("views sent %d, want 1", n)
	}
	r := rs("a", run.StatusRunning, t0, nil)
	m.Apply(run.WatchMessage{Type: run.WatchRunChanged, Run: &r})
	if n != 2 {
		t.Fatalf("a new run's view not sent")
	}
}

func TestModelSetQuota(t *testing.T) {
	var last View
	n := 0
	m := NewModel(func(v View) { last, n = v, n+1 })
	m.clock = testClock{fakeclock.New(t0)}
	m.Refresh()
	m.SetQuota([]string{"Claude: 5-hour limit reached, resets 15:00"})
	if n != 2 || last.Items[0].Label != "Claude: 5-hour limit reached, resets 15:00" {
		t.Fatalf("after SetQuota: %d views, %q", n, labels(last.Items))
	}
	m.SetQuota([]string{"Claude: 5-hour limit reached, resets 15:00"})
	if n != 2 {
		t.Fatalf("the same lines sent a view again")
	}
}
