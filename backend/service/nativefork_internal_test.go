package service

import (
	"reflect"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Which turns a fork keeps natively, counted from the transcript: a turn
// reached the agent when its answer was recorded.
func TestNativeForkCountsTheTurns(t *testing.T) {
	user := func(runID, text string) run.Message {
		return run.Message{RunID: runID, Role: run.RoleUser, Content: text}
	}
	said := func(runID, text string) run.Message {
		return run.Message{RunID: runID, Role: run.RoleAssistant, Content: text}
	}
	three := []run.Message{user("r1", "one"), said("r1", "a1"), user("r2", "two"), said("r2", "a2"), user("r3", "three"), said("r3", "a3")}
	lastFailed := []run.Message{user("r1", "one"), said("r1", "a1"), user("r2", "two"), said("r2", "")}
	claude := run.Session{Agent: "claude", NativeSessionID: "n"}
	acp := run.Session{Agent: "qwen", NativeSessionID: "n"}
	for _, c := range []struct {
		name  string
		src   run.Session
		msgs  []run.Message
		runID string
		way   checkpoints.ForkWay
		fork  *run.NativeFork
	}{
		{"at a turn: the second of three", claude, three, "r2", checkpoints.ForkNative, &run.NativeFork{From: "n", Turns: 1, Next: "two"}},
		{"at a turn: the last", claude, three, "r3", checkpoints.ForkNative, &run.NativeFork{From: "n", Turns: 2, Next: "three"}},
		{"at a turn: the first", claude, three, "r1", checkpoints.ForkFresh, nil},
		{"at a turn: no native session", run.Session{Agent: "claude"}, three, "r2", checkpoints.ForkHandover, nil},
		{"at its end: the last turn was answered", acp, three, "r3", checkpoints.ForkHandover, nil},
		{"at its end: an earlier turn", acp, three, "r2", checkpoints.ForkHandover, nil},
		{"at its end: the last turn never answered", acp, lastFailed, "r2", checkpoints.ForkNative, &run.NativeFork{From: "n", Turns: 1, All: true, Next: "two"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			way, fork := nativeFork(c.src, c.msgs, c.runID)
			if way != c.way || !reflect.DeepEqual(fork, c.fork) {
				t.Fatalf("nativeFork = %v %+v, want %v %+v", way, fork, c.way, c.fork)
			}
		})
	}
}
