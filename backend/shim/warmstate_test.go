package shim

import (
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

func warmSpec(runID string) control.Spec {
	return control.Spec{
		RunID: runID, SessionID: "ses_1", Agent: "demo", Workspace: "/w", Model: "m",
		DataDir: "/data", DBPath: "/data/db", Config: adapter.Config{Env: []string{"A=1"}},
	}
}

func TestWarmStateTakeAndEnd(t *testing.T) {
	other := func(f func(*control.Spec)) control.Spec {
		s := warmSpec("run_2")
		f(&s)
		return s
	}
	tests := []struct {
		name      string
		before    func(w *warmState)
		spec      control.Spec
		wantTake  bool
		wantEnded bool // the idle period is over after the attempt
	}{
		{name: "fits", spec: warmSpec("run_2"), wantTake: true},
		{name: "after the idle timeout", before: func(w *warmState) { w.end("idle timeout") }, spec: warmSpec("run_2"), wantEnded: true},
		{name: "after a second take", before: func(w *warmState) { w.take(warmSpec("run_1b")) }, spec: warmSpec("run_2")},
		{name: "other settings retire it", spec: other(func(s *control.Spec) { s.Config.Env = []string{"A=2"} }), wantEnded: true},
		{name: "other workspace retires it", spec: other(func(s *control.Spec) { s.Workspace = "/x" }), wantEnded: true},
		{name: "other model retires it", spec: other(func(s *control.Spec) { s.Model = "n" }), wantEnded: true},
		{name: "other session is refused", spec: other(func(s *control.Spec) { s.SessionID = "ses_2" })},
		{name: "invalid spec is refused", spec: other(func(s *control.Spec) { s.RunID = "" })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWarmState(warmSpec("run_1"))
			w.arm(time.Hour)
			if tc.before != nil {
				tc.before(w)
			}
			err := w.take(tc.spec)
			if (err == nil) != tc.wantTake {
				t.Fatalf("take = %v, want taken %v", err, tc.wantTake)
			}
			select {
			case <-w.closed:
				if !tc.wantEnded {
					t.Fatalf("idle period ended (%s)", w.reason())
				}
			default:
				if tc.wantEnded {
					t.Fatal("idle period still open")
				}
			}
			if tc.wantTake && w.end("late timeout") {
				t.Fatal("a taken warm state was ended")
			}
		})
	}
}

// The idle timer and a next run race: exactly one wins, every time.
func TestWarmStateTimerRacesTake(t *testing.T) {
	var taken, ended int
	for i := 0; i < 2000; i++ {
		w := newWarmState(warmSpec("run_1"))
		w.arm(time.Duration(i%50) * time.Microsecond)
		takeErr := w.take(warmSpec("run_2")) // the timer fires on its own goroutine
		select {
		case <-w.closed:
			if takeErr == nil {
				t.Fatalf("iteration %d: a run was taken and the period ended too", i)
			}
			ended++
		default:
			if takeErr != nil {
				// Refused, so the timer must end the period.
				<-w.closed
				ended++
				continue
			}
			taken++
			if w.end("timer after take") {
				t.Fatalf("iteration %d: the period ended after a take", i)
			}
		}
	}
	t.Logf("taken %d, ended %d", taken, ended)
}
