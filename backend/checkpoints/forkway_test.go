package checkpoints

import "testing"

func TestDecideFork(t *testing.T) {
	for _, c := range []struct {
		name string
		f    ForkFacts
		want ForkWay
	}{
		{"first turn: nothing before it", ForkFacts{Native: "s", Before: 0, Later: 3, AtTurn: true}, ForkFresh},
		{"first turn of a session never run", ForkFacts{}, ForkFresh},
		{"no native session to fork", ForkFacts{Before: 2, Later: 0, AtTurn: true}, ForkHandover},
		{"forks at a turn: an earlier turn", ForkFacts{Native: "s", Before: 1, Later: 2, AtTurn: true}, ForkNative},
		{"forks at a turn: the last turn", ForkFacts{Native: "s", Before: 2, Later: 1, AtTurn: true}, ForkNative},
		{"forks at its end only: the last turn reached it", ForkFacts{Native: "s", Before: 2, Later: 1}, ForkHandover},
		{"forks at its end only: an earlier turn", ForkFacts{Native: "s", Before: 1, Later: 2}, ForkHandover},
		{"forks at its end only: no turn from here reached it", ForkFacts{Native: "s", Before: 2, Later: 0}, ForkNative},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := DecideFork(c.f); got != c.want {
				t.Fatalf("DecideFork(%+v) = %v, want %v", c.f, got, c.want)
			}
		})
	}
}

func TestForksAtTurn(t *testing.T) {
	for agent, want := range map[string]bool{"claude": true, "codex": true, "gemini": false, "hermes": false, "demo": false, "qwen": false} {
		if got := ForksAtTurn(agent); got != want {
			t.Errorf("ForksAtTurn(%q) = %v, want %v", agent, got, want)
		}
	}
}
