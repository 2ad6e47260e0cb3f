package fakeagent

import "testing"

// The hang scenario ignores session/cancel from its first output on. A
// test sees that output, then cancels (TestHangIsKilledByClose, the
// supervisor's cancel ladder); the player honours a cancel between the
// steps it plays with the turn's context, so a step after the first output
// outside an ignore_cancel repeat let a cancel that arrived in that gap
// (an agent descheduled under load) end the scenario: no more output, a
// flaky "the hang scenario did not ignore it".
func TestHangIgnoresCancelFromItsFirstOutput(t *testing.T) {
	m, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	steps := m["hang"].Steps
	for i, s := range steps {
		switch {
		case s.Repeat != nil && s.Repeat.IgnoreCancel:
			if i != len(steps)-1 {
				t.Errorf("step %d follows the ignore_cancel repeat: a cancel would end the scenario there", i+1)
			}
			return
		case s.IgnoreSIGTERM || s.IgnoreEOF:
			// Silent: a cancel before any output is not the race.
		default:
			t.Fatalf("step %d plays with the turn's context, before the ignore_cancel repeat", i+1)
		}
	}
	t.Fatal("the hang scenario has no ignore_cancel repeat")
}
