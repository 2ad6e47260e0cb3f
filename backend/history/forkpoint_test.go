package history_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Where Claude Code's own fork keeps the first turns of a session: the
// last assistant line of the last turn kept, once the next turn's prompt
// is the message forked from.
func TestClaudeForkPoint(t *testing.T) {
	conv := []string{
		line("user", "u1", "", `"first"`),
		line("assistant", "a1", "u1", `[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]`),
		line("user", "r1", "a1", `[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]`),
		line("assistant", "a2", "r1", `[{"type":"text","text":"done"}]`),
		line("user", "m1", "a2", `"<caveat>"`, `,"isMeta":true`),
		line("user", "u2", "m1", `[{"type":"text","text":"second"}]`),
		line("assistant", "a3", "u2", `[{"type":"text","text":"two"}]`),
		line("user", "u3", "a3", `"third"`),
		line("assistant", "a4", "u3", `[{"type":"text","text":"three"}]`),
	}
	for _, c := range []struct {
		name  string
		lines []string
		f     run.NativeFork
		want  string // "" wants ErrNoForkPoint
	}{
		{"after the first turn, tool calls and all", conv, run.NativeFork{From: "s1", Turns: 1, Next: "second"}, "a2"},
		{"after the second turn", conv, run.NativeFork{From: "s1", Turns: 2, Next: "third"}, "a3"},
		{"the next prompt is another message", conv, run.NativeFork{From: "s1", Turns: 1, Next: "third"}, ""},
		{"no turn after the kept ones", conv, run.NativeFork{From: "s1", Turns: 3, Next: "fourth"}, ""},
		{"no turn kept", conv, run.NativeFork{From: "s1", Turns: 0, Next: "first"}, ""},
		{"a rewound branch is not counted", []string{
			line("user", "u1", "", `"first"`),
			line("assistant", "a1", "u1", `[{"type":"text","text":"one"}]`),
			line("user", "x2", "a1", `"abandoned"`),
			line("assistant", "x3", "x2", `[{"type":"text","text":"gone"}]`),
			line("user", "u2", "a1", `"second"`),
			line("assistant", "a2", "u2", `[{"type":"text","text":"two"}]`),
		}, run.NativeFork{From: "s1", Turns: 1, Next: "second"}, "a1"},
		{"another session's id", conv, run.NativeFork{From: "s2", Turns: 1, Next: "second"}, ""},
		{"a path in the id", conv, run.NativeFork{From: "../s1", Turns: 1, Next: "second"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			p := filepath.Join(home, "projects", "-w", "s1.jsonl")
			os.MkdirAll(filepath.Dir(p), 0o700)
			if err := os.WriteFile(p, []byte(strings.Join(c.lines, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := history.ForkPoint("claude", adapter.Config{Home: home}, c.f)
			if c.want == "" {
				if !errors.Is(err, history.ErrNoForkPoint) {
					t.Fatalf("ForkPoint = %q, %v; want ErrNoForkPoint", got, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("ForkPoint = %q, %v; want %q", got, err, c.want)
			}
		})
	}
	if _, err := history.ForkPoint("qwen", adapter.Config{}, run.NativeFork{From: "s1", Turns: 1}); !errors.Is(err, history.ErrNoForkPoint) {
		t.Errorf("an agent without fork points: %v", err)
	}
}
