package supervisor

import (
	"reflect"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestPlanQueue(t *testing.T) {
	q := func(id, ses string) run.Run { return run.Run{ID: id, SessionID: ses, Status: run.StatusQueued} }
	r := func(id, ses string) run.Run { return run.Run{ID: id, SessionID: ses, Status: run.StatusRunning} }
	pk := func(id, ses string) run.Run { return run.Run{ID: id, SessionID: ses, Status: run.StatusParked} }
	ids := func(rs []run.Run) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	all := func(id ...string) map[string]bool {
		m := map[string]bool{}
		for _, i := range id {
			m[i] = true
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		f      queueFacts
		launch []string
		lost   []string
	}{
		{"oldest first up to the limit",
			queueFacts{runs: []run.Run{q("a", "s1"), q("b", "s2"), q("c", "s3")}, specs: all("a", "b", "c"), max: 2},
			[]string{"a", "b"}, nil},
		{"one active run per session",
			queueFacts{runs: []run.Run{q("a", "s1"), q("b", "s1"), q("c", "s2")}, specs: all("a", "b", "c"), max: 4},
			[]string{"a", "c"}, nil},
		{"a running run holds its session and a slot",
			queueFacts{runs: []run.Run{r("a", "s1"), q("b", "s1"), q("c", "s2"), q("d", "s3")}, specs: all("b", "c", "d"), max: 2},
			[]string{"c"}, nil},
		{"a tracked queued run (its shim is starting) counts as active",
			queueFacts{runs: []run.Run{q("a", "s1"), q("b", "s1"), q("c", "s2")}, tracked: all("a"), specs: all("b", "c"), max: 2},
			[]string{"c"}, nil},
		{"a missing spec is a lost start request",
			queueFacts{runs: []run.Run{q("a", "s1"), q("b", "s2")}, specs: all("b"), max: 4},
			[]string{"b"}, []string{"a"}},
		{"a missing spec while a Start is preparing waits",
			queueFacts{runs: []run.Run{q("a", "s1"), q("b", "s2")}, specs: all("b"), preparing: true, max: 4},
			[]string{"b"}, nil},
		{"no slot: nothing, not even lost",
			queueFacts{runs: []run.Run{r("a", "s1"), q("b", "s2")}, max: 1},
			nil, nil},
		{"a parked run takes no slot but holds its session",
			queueFacts{runs: []run.Run{pk("a", "s1"), q("b", "s1"), q("c", "s2")}, specs: all("a", "b", "c"), max: 1},
			[]string{"c"}, nil},
		{"a due parked run starts in its place by age",
			queueFacts{runs: []run.Run{pk("a", "s1"), q("b", "s2"), pk("c", "s3")}, specs: all("a", "b", "c"), due: all("a", "c"), max: 2},
			[]string{"a", "b"}, nil},
		{"due parked runs wait for a slot like queued ones",
			queueFacts{runs: []run.Run{r("x", "s0"), pk("a", "s1"), pk("b", "s2")}, specs: all("a", "b"), due: all("a", "b"), max: 2},
			[]string{"a"}, nil},
		{"what was queued behind a due parked run still waits",
			queueFacts{runs: []run.Run{pk("a", "s1"), q("b", "s1")}, specs: all("a", "b"), due: all("a"), max: 4},
			[]string{"a"}, nil},
		{"a due parked run without its spec is lost",
			queueFacts{runs: []run.Run{pk("a", "s1")}, due: all("a"), max: 4},
			nil, []string{"a"}},
		{"a parked run being started (tracked) takes its slot",
			queueFacts{runs: []run.Run{pk("a", "s1"), q("b", "s2")}, tracked: all("a"), specs: all("b"), max: 1},
			nil, nil},
		{"limit zero launches nothing",
			queueFacts{runs: []run.Run{q("a", "s1")}, specs: all("a"), max: 0},
			nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := planQueue(tc.f)
			if got := ids(p.launch); !reflect.DeepEqual(got, tc.launch) {
				t.Errorf("launch %v, want %v", got, tc.launch)
			}
			if !reflect.DeepEqual(p.lost, tc.lost) {
				t.Errorf("lost %v, want %v", p.lost, tc.lost)
			}
		})
	}
}

func TestDecideCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    checkFacts
		want verdict
	}{
		{"ended", checkFacts{terminal: true}, runEnded},
		{"ended wins over a held lock", checkFacts{terminal: true, lockHeld: true}, runEnded},
		{"lock held: live shim", checkFacts{lockHeld: true}, shimLive},
		{"lock error: treated as live, checked again", checkFacts{lockErr: true}, shimLive},
		{"free lock, never started", checkFacts{neverStarted: true}, notStarted},
		{"free lock: dead shim", checkFacts{}, shimDead},
		{"free lock on a parked run: it waits for its quota", checkFacts{parked: true}, runParked},
		{"a parked run's live shim (resuming) is live", checkFacts{parked: true, lockHeld: true}, shimLive},
	} {
		if got := decideCheck(tc.f); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, v := range []verdict{shimLive, fenceFailed} {
		if !v.keepFollowing() {
			t.Errorf("%v should keep following", v)
		}
	}
	for _, v := range []verdict{runEnded, shimDead, notStarted, runParked} {
		if v.keepFollowing() {
			t.Errorf("%v should stop following", v)
		}
	}
}
